import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { fetchServedImage, imageInfo, pngBytes, sendFiles, type FilePart } from "./image-upload-helpers.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

/**
 * Bot avatars uploaded with `POST /bots` and `PATCH /bots/{bot_id}` (a
 * multipart body with one image file, as Zulip's `add_bot_backend` and
 * `patch_bot_backend` read it).
 */
const org = useTestOrg();
/** Zulip's `BadImageError` (an image that does not decode) answers `BAD_IMAGE`; the other refusals `BAD_REQUEST`. */
const err = (msg: string) => ({ result: "error", msg, code: msg.startsWith("Could not decode image") ? "BAD_IMAGE" : "BAD_REQUEST" });
const png = (bytes: Uint8Array, name = "bot.png"): FilePart => ({ name, type: "image/png", bytes });
const avatarPath = (botId: number, version: number, medium = false) =>
  `/user_avatars/${org.realm.id}/avatars/${botId}-${version}${medium ? "-medium" : ""}.png?version=${version}`;

describe("POST /bots with an avatar file", () => {
  it("creates the bot with the uploaded avatar (both sizes), named in the answer and the events", async () => {
    const { member, admin } = org.users;
    const cursors = await eventCursors(org, [member.id, admin.id]);
    const res = await sendFiles(org, member, "POST", "/bots", [png(await pngBytes(300, 120))], { full_name: "Picture Bot", short_name: "picture" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const botId = res.body.user_id as number;
    expect(res.body).toMatchObject({ result: "success", avatar_url: avatarPath(botId, 1) });
    expect(await storedUser(org, botId)).toMatchObject({ avatar_source: "U", avatar_version: 1, full_name: "Picture Bot" });

    const small = await fetchServedImage(org, res.body.avatar_url);
    expect(await imageInfo(small.bytes)).toEqual({ format: "png", width: 100, height: 100, pages: 1 });
    const medium = await fetchServedImage(org, avatarPath(botId, 1, true));
    expect(await imageInfo(medium.bytes)).toEqual({ format: "png", width: 500, height: 500, pages: 1 });

    const events = await eventsAfter(org, admin.id, cursors.get(admin.id)!);
    expect(events.map((e) => `${e.type}/${e.op}`)).toEqual(["realm_user/add", "realm_bot/add"]);
    expect(events[0]!.person).toMatchObject({ user_id: botId, avatar_url: avatarPath(botId, 1), avatar_version: 1 });
    expect(events[1]!.bot).toMatchObject({ user_id: botId, avatar_url: avatarPath(botId, 1) });
  });

  it("refuses two files and a file that is not an image, creating nothing", async () => {
    const { member } = org.users;
    const image = await pngBytes(20, 20);
    const cases: [FilePart[], string, string][] = [
      [[png(image, "a.png"), png(image, "b.png")], "twofiles", "You may only upload one file at a time"],
      [[{ name: "fake.png", type: "image/png", bytes: new TextEncoder().encode("not an image") }], "notimage", "Could not decode image; did you upload an image file?"],
    ];
    for (const [files, short, msg] of cases) {
      const res = await sendFiles(org, member, "POST", "/bots", files, { full_name: `Bot ${short}`, short_name: short });
      expect({ short, status: res.status, body: res.body }).toEqual({ short, status: 400, body: err(msg) });
    }
    const bots = (await org.api(member, "GET", "/bots")).body.bots as { username: string }[];
    expect(bots.filter((b) => b.username.startsWith("twofiles-bot") || b.username.startsWith("notimage-bot"))).toEqual([]);
  });

  it("checks the caller before the file: a guest is refused", async () => {
    const res = await sendFiles(org, org.users.guest, "POST", "/bots", [png(await pngBytes(20, 20))], { full_name: "Guest Bot", short_name: "guestpic" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Not allowed for guest users"));
  });
});

describe("PATCH /bots/{bot_id} with an avatar file", () => {
  async function newBot(short: string): Promise<number> {
    const res = await org.api(org.users.member, "POST", "/bots", { full_name: `Bot ${short}`, short_name: short });
    expect(res.status).toBe(200);
    return res.body.user_id as number;
  }

  it("sets the uploaded avatar at the next version together with other changes; realm_user and realm_bot updates", async () => {
    const { member, member2 } = org.users;
    const botId = await newBot("repaint");
    const before = await storedUser(org, botId);
    const cursors = await eventCursors(org, [member.id, member2.id]);
    const res = await sendFiles(org, member, "PATCH", `/bots/${botId}`, [png(await pngBytes(64, 64, "#cc3366"))], { full_name: "Repainted" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const version = before.avatar_version + 1;
    expect(res.body).toMatchObject({ result: "success", full_name: "Repainted", avatar_url: avatarPath(botId, version) });
    expect(await storedUser(org, botId)).toMatchObject({ avatar_source: "U", avatar_version: version, full_name: "Repainted" });
    expect(await imageInfo((await fetchServedImage(org, res.body.avatar_url)).bytes)).toMatchObject({ width: 100, height: 100 });

    const seen = await eventsAfter(org, member2.id, cursors.get(member2.id)!);
    expect(seen.find((e) => e.type === "realm_user" && e.person.avatar_version === version)?.person).toEqual({
      user_id: botId,
      avatar_source: "U",
      avatar_url: avatarPath(botId, version),
      avatar_url_medium: avatarPath(botId, version, true),
      avatar_version: version,
    });
    const owner = await eventsAfter(org, member.id, cursors.get(member.id)!);
    expect(owner.find((e) => e.type === "realm_bot" && e.bot.avatar_url !== undefined)?.bot).toEqual({
      user_id: botId,
      avatar_url: avatarPath(botId, version),
    });
  });

  it("refuses a stranger, two files and a non-image before writing anything", async () => {
    const { member, member2 } = org.users;
    const botId = await newBot("guarded");
    const image = await pngBytes(20, 20);
    const cases: [typeof member, FilePart[], string][] = [
      [member2, [png(image)], "Insufficient permission"],
      [member, [png(image, "a.png"), png(image, "b.png")], "You may only upload one file at a time"],
      [member, [{ name: "x.png", type: "image/png", bytes: new TextEncoder().encode("text") }], "Could not decode image; did you upload an image file?"],
    ];
    for (const [caller, files, msg] of cases) {
      const res = await sendFiles(org, caller, "PATCH", `/bots/${botId}`, files, { full_name: "Changed" });
      expect({ msg, status: res.status, body: res.body }).toEqual({ msg, status: 400, body: err(msg) });
    }
    expect(await storedUser(org, botId)).toMatchObject({ full_name: "Bot guarded", avatar_source: "G", avatar_version: 1 });
  });
});
