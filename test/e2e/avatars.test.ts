import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { fetchServedImage, imageInfo, pngBytes, sendFiles } from "./image-upload-helpers.js";
import { queueClient } from "./streams-helpers.js";

/**
 * Uploaded avatars (`POST`/`DELETE /users/me/avatar`) and the organization's
 * icon and logos (`POST`/`DELETE /realm/icon`, `/realm/logo`): the stored
 * images, the URLs everywhere users and the realm appear, the events a
 * second client receives and the refusals.
 */
const org = useTestOrg();
let watcher: EventQueueClient;
let png: Uint8Array;

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
/** Zulip's `BadImageError` answers `BAD_IMAGE`. */
const badImage = (msg: string) => ({ result: "error", msg, code: "BAD_IMAGE" });
const file = (bytes: Uint8Array, name = "a.png") => [{ name, type: "image/png", bytes }];

beforeAll(async () => {
  png = await pngBytes(300, 200);
  watcher = queueClient(org, org.users.member2);
  await watcher.register({ event_types: JSON.stringify(["realm_user", "realm"]) });
});

afterAll(async () => {
  await watcher?.delete();
});

describe("POST /users/me/avatar", () => {
  it("stores 100×100 and 500×500 PNGs; avatar_url everywhere; the realm_user event; DELETE goes back to gravatar", async () => {
    const { member } = org.users;
    const before = (await org.api(member, "GET", "/users/me")).body;
    const res = await sendFiles(org, member, "POST", "/users/me/avatar", file(png));
    expect(res.status).toBe(200);
    const version = before.avatar_version + 1;
    const base = `/user_avatars/${org.realm.id}/avatars/${member.id}-${version}`;
    expect(res.body).toEqual({ result: "success", msg: "", avatar_url: `${base}.png?version=${version}` });

    const small = await fetchServedImage(org, res.body.avatar_url);
    expect(small.type).toBe("image/png");
    expect(await imageInfo(small.bytes)).toEqual({ format: "png", width: 100, height: 100, pages: 1 });
    const medium = await fetchServedImage(org, `${base}-medium.png?version=${version}`);
    expect(await imageInfo(medium.bytes)).toEqual({ format: "png", width: 500, height: 500, pages: 1 });

    const event = await watcher.waitFor((e) => e.type === "realm_user" && e.person.avatar_version === version);
    expect(event.person).toEqual({
      user_id: member.id,
      avatar_source: "U",
      avatar_url: `${base}.png?version=${version}`,
      avatar_url_medium: `${base}-medium.png?version=${version}`,
      avatar_version: version,
    });
    // Uploaded avatars are URLs even for client_gravatar clients.
    const me = (await org.api(member, "GET", "/users/me")).body;
    expect(me).toMatchObject({ avatar_url: `${base}.png?version=${version}`, avatar_version: version });
    const other = (await org.api(org.users.member2, "GET", `/users/${member.id}`, { client_gravatar: true })).body.user;
    expect(other.avatar_url).toBe(`${base}.png?version=${version}`);
    const reg = await queueClient(org, member).register({ fetch_event_types: JSON.stringify(["realm_user"]) });
    expect(reg).toMatchObject({ avatar_source: "U", avatar_url_medium: `${base}-medium.png?version=${version}` });

    const del = await org.api(member, "DELETE", "/users/me/avatar");
    expect(del.body).toEqual({ result: "success", msg: "", avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=/) });
    const back = await watcher.waitFor((e) => e.type === "realm_user" && e.person.avatar_version === version + 1);
    expect(back.person).toMatchObject({ user_id: member.id, avatar_source: "G", avatar_url: del.body.avatar_url });
    // The replaced upload is gone.
    expect(await org.stack.deps.files.get(`${org.realm.id}/avatars/${member.id}-${version}.png`)).toBeUndefined();
  });

  it("refuses no file, two files, a non-image named .png, a large file, and changes when disabled", async () => {
    const { member2, admin, bot } = org.users;
    const before = (await org.api(member2, "GET", "/users/me")).body.avatar_version;
    expect((await sendFiles(org, member2, "POST", "/users/me/avatar", [])).body).toEqual(err("You must upload exactly one avatar."));
    expect((await sendFiles(org, member2, "POST", "/users/me/avatar", [...file(png), ...file(png, "b.png")])).body).toEqual(
      err("You must upload exactly one avatar."),
    );
    const text = new TextEncoder().encode("plain text, not a PNG");
    expect((await sendFiles(org, member2, "POST", "/users/me/avatar", file(text, "x.png"))).body).toEqual(
      badImage("Could not decode image; did you upload an image file?"),
    );
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    expect((await sendFiles(org, member2, "POST", "/users/me/avatar", file(big))).body).toEqual(
      err("Uploaded file is larger than the allowed limit of 4 MiB"),
    );
    await withRealmSettings(org, { avatar_changes_disabled: true }, async () => {
      expect((await sendFiles(org, member2, "POST", "/users/me/avatar", file(png))).body).toEqual(
        err("Avatar changes are disabled in this organization."),
      );
      expect((await org.api(member2, "DELETE", "/users/me/avatar")).body).toEqual(err("Avatar changes are disabled in this organization."));
      expect((await sendFiles(org, admin, "POST", "/users/me/avatar", file(png))).body.result).toBe("success");
    });
    expect((await org.api(member2, "GET", "/users/me")).body.avatar_version).toBe(before);
    // A bot sets its own avatar, as in Zulip; its owner hears through realm_bot.
    const owner = queueClient(org, org.users.member);
    await owner.register({ event_types: JSON.stringify(["realm_bot"]) });
    const set = await sendFiles(org, bot, "POST", "/users/me/avatar", file(png));
    expect(set.body.result).toBe("success");
    const botEvent = await owner.waitFor((e) => e.type === "realm_bot" && e.op === "update");
    expect(botEvent.bot).toEqual({ user_id: bot.id, avatar_url: set.body.avatar_url });
    await owner.delete();
  });
});

describe("organization icon and logos", () => {
  it("an administrator uploads and deletes the icon; register and the update_dict event follow", async () => {
    const res = await sendFiles(org, org.users.admin, "POST", "/realm/icon", file(png));
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      icon_url: expect.stringMatching(new RegExp(`^/user_avatars/${org.realm.id}/realm/icon-(\\d+)\\.png\\?version=\\1$`)),
    });
    expect(await imageInfo((await fetchServedImage(org, res.body.icon_url)).bytes)).toEqual({ format: "png", width: 100, height: 100, pages: 1 });
    const event = await watcher.waitFor((e) => e.type === "realm" && e.op === "update_dict" && e.data.icon_url === res.body.icon_url);
    expect(event).toMatchObject({ property: "default", data: { icon_url: res.body.icon_url, icon_source: "U" } });
    const reg = await queueClient(org, org.users.guest).register({ fetch_event_types: JSON.stringify(["realm"]) });
    expect(reg).toMatchObject({ realm_icon_url: res.body.icon_url, realm_icon_source: "U", max_icon_file_size_mib: 4 });

    const del = await org.api(org.users.owner, "DELETE", "/realm/icon");
    expect(del.body).toEqual({ result: "success", msg: "", icon_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/) });
    const back = await watcher.waitFor((e) => e.type === "realm" && e.op === "update_dict" && e.data.icon_source === "G");
    expect(back.data).toEqual({ icon_url: del.body.icon_url, icon_source: "G" });
  });

  it("day and night logos are kept whole within 800×100", async () => {
    const wide = await pngBytes(1600, 100);
    const res = await sendFiles(org, org.users.owner, "POST", "/realm/logo", file(wide), { night: "true" });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const event = await watcher.waitFor((e) => e.type === "realm" && e.op === "update_dict" && e.data.night_logo_source === "U");
    expect(event.data).toEqual({
      night_logo_url: expect.stringMatching(new RegExp(`^/user_avatars/${org.realm.id}/realm/night_logo-(\\d+)\\.png\\?version=\\1$`)),
      night_logo_source: "U",
    });
    expect(await imageInfo((await fetchServedImage(org, event.data.night_logo_url)).bytes)).toEqual({ format: "png", width: 800, height: 50, pages: 1 });
    const reg = await queueClient(org, org.users.member).register({ fetch_event_types: JSON.stringify(["realm"]) });
    expect(reg).toMatchObject({ realm_night_logo_url: event.data.night_logo_url, realm_night_logo_source: "U", realm_logo_source: "D" });

    expect((await org.api(org.users.admin, "DELETE", "/realm/logo", { night: true })).body).toEqual({ result: "success", msg: "" });
    const back = await watcher.waitFor((e) => e.type === "realm" && e.op === "update_dict" && e.data.night_logo_source === "D");
    expect(back.data).toEqual({ night_logo_url: expect.stringMatching(/\/static\/images\/logo\/zulip-org-logo\.svg\?version=0$/), night_logo_source: "D" });
  });

  it("refuses every role below administrator, a missing night, and bad files", async () => {
    for (const user of [org.users.moderator, org.users.member, org.users.guest, org.users.bot]) {
      expect((await sendFiles(org, user, "POST", "/realm/icon", file(png))).body).toEqual(err("Must be an organization administrator"));
      expect((await org.api(user, "DELETE", "/realm/icon")).body).toEqual(err("Must be an organization administrator"));
      expect((await sendFiles(org, user, "POST", "/realm/logo", file(png), { night: "false" })).body).toEqual(
        err("Must be an organization administrator"),
      );
      expect((await org.api(user, "DELETE", "/realm/logo", { night: false })).body).toEqual(err("Must be an organization administrator"));
    }
    const missing = await sendFiles(org, org.users.admin, "POST", "/realm/logo", file(png));
    expect(missing.body).toMatchObject({ result: "error", msg: "Missing 'night' argument" });
    expect((await sendFiles(org, org.users.admin, "POST", "/realm/icon", [])).body).toEqual(err("You must upload exactly one icon."));
    expect((await sendFiles(org, org.users.admin, "POST", "/realm/logo", [], { night: "false" })).body).toEqual(
      err("You must upload exactly one logo."),
    );
    const text = new TextEncoder().encode("not an image");
    expect((await sendFiles(org, org.users.admin, "POST", "/realm/icon", file(text, "x.png"))).body).toEqual(
      badImage("Could not decode image; did you upload an image file?"),
    );
  });
});
