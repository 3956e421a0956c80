import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import type { EventQueueClient } from "../support/event-queue-client.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { animatedGifBytes, fetchServedImage, imageInfo, pngBytes, sendFiles } from "./image-upload-helpers.js";
import { createStream, queueClient } from "./streams-helpers.js";
import { messageReactions } from "../../shared/data/reactions.js";

/**
 * Custom emoji: `GET /realm/emoji`, `POST` and `DELETE /realm/emoji/{name}`,
 * the images behind `source_url`/`still_url`, `realm_emoji` in register and
 * events, and custom emoji in Markdown, reactions and statuses.
 */
const org = useTestOrg();
let watcher: EventQueueClient;
let png: Uint8Array;

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
/** Zulip's `BadImageError` answers `BAD_IMAGE`. */
const badImage = (msg: string) => ({ result: "error", msg, code: "BAD_IMAGE" });

async function upload(user: TestUser, name: string, bytes: Uint8Array = png, fileName = "e.png") {
  return sendFiles(org, user, "POST", `/realm/emoji/${encodeURIComponent(name)}`, [{ name: fileName, type: "image/png", bytes }]);
}

async function emojiByName(name: string): Promise<Record<string, any> | undefined> {
  const res = await org.api(org.users.member, "GET", "/realm/emoji");
  expect(res.status).toBe(200);
  return Object.values(res.body.emoji as Record<string, any>).find((e) => e.name === name && !e.deactivated);
}

async function allEmojiCount(): Promise<number> {
  return Object.keys((await org.api(org.users.member, "GET", "/realm/emoji")).body.emoji).length;
}

beforeAll(async () => {
  png = await pngBytes(200, 100);
  watcher = queueClient(org, org.users.member2);
  await watcher.register({ event_types: JSON.stringify(["realm_emoji"]) });
  await createStream(org, org.users.member, "emoji-stream", { principals: [org.users.member.id, org.users.member2.id] });
});

afterAll(async () => {
  await watcher?.delete();
});

describe("POST /realm/emoji/{emoji_name}", () => {
  it("a member adds an emoji: GET, the resized image behind source_url, the event and register", async () => {
    const res = await upload(org.users.member, "party parrot");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const emoji = await emojiByName("party_parrot");
    expect(emoji).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "party_parrot",
      source_url: expect.stringMatching(new RegExp(`^/user_avatars/${org.realm.id}/emoji/images/[0-9a-f]{16}\\.png$`)),
      still_url: null,
      deactivated: false,
      author_id: org.users.member.id,
    });
    const served = await fetchServedImage(org, emoji!.source_url);
    expect(served.type).toBe("image/png");
    // Zulip crops a still emoji to the 64×64 square.
    expect(await imageInfo(served.bytes)).toEqual({ format: "png", width: 64, height: 64, pages: 1 });

    const event = await watcher.waitFor((e) => e.type === "realm_emoji" && e.realm_emoji[emoji!.id] !== undefined);
    expect(event).toMatchObject({ type: "realm_emoji", op: "update" });
    expect(event.realm_emoji[emoji!.id]).toEqual(emoji);

    const reg = await queueClient(org, org.users.guest).register({ fetch_event_types: JSON.stringify(["realm_emoji"]) });
    expect(reg.realm_emoji[emoji!.id]).toEqual(emoji);
  });

  it("an animated GIF keeps its frames and gets a still PNG", async () => {
    const gif = await animatedGifBytes(128, 128);
    const res = await sendFiles(org, org.users.admin, "POST", "/realm/emoji/spinner", [{ name: "s.gif", type: "image/gif", bytes: gif }]);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const emoji = (await emojiByName("spinner"))!;
    expect(emoji.source_url).toMatch(/\.gif$/);
    expect(emoji.still_url).toBe(emoji.source_url.replace("/emoji/images/", "/emoji/images/still/").replace(/\.gif$/, ".png"));
    expect(await imageInfo((await fetchServedImage(org, emoji.source_url)).bytes)).toEqual({ format: "gif", width: 64, height: 64, pages: 2 });
    expect(await imageInfo((await fetchServedImage(org, emoji.still_url)).bytes)).toEqual({ format: "png", width: 64, height: 64, pages: 1 });
  });

  it("refuses guests, bots, bad names, a second file, a non-image, a large file; nothing is added", async () => {
    const before = await allEmojiCount();
    const { member, guest, bot } = org.users;
    expect((await upload(guest, "guest_emoji")).body).toEqual(err("Not allowed for guest users"));
    expect((await upload(bot, "bot_emoji")).body).toEqual(err("This endpoint does not accept bot requests."));
    expect((await upload(member, "ends_")).body).toEqual(err("Emoji names must end with either a letter or digit."));
    expect((await upload(member, "Caps")).body).toEqual(
      err("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."),
    );
    expect((await upload(member, "x".repeat(101))).body).toEqual(err("Emoji name is too long"));
    expect((await sendFiles(org, member, "POST", "/realm/emoji/none", [])).body).toEqual(err("You must upload exactly one file."));
    const two = await sendFiles(org, member, "POST", "/realm/emoji/two", [
      { name: "a.png", type: "image/png", bytes: png },
      { name: "b.png", type: "image/png", bytes: png },
    ]);
    expect(two.body).toEqual(err("You must upload exactly one file."));
    const text = new TextEncoder().encode("not an image at all");
    expect((await upload(member, "texty", text, "x.png")).body).toEqual(badImage("Could not decode image; did you upload an image file?"));
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(png);
    expect((await upload(member, "big", big)).body).toEqual(err("Uploaded file is larger than the allowed limit of 4 MiB"));
    expect(await allEmojiCount()).toBe(before);
  });

  it("a taken name is refused; only administrators override a built-in emoji name", async () => {
    expect((await upload(org.users.member2, "party_parrot")).body).toEqual(err("A custom emoji with this name already exists."));
    expect((await upload(org.users.member, "smile")).body).toEqual(err("Only administrators can override built-in emoji."));
    expect((await upload(org.users.admin, "smile")).body).toEqual({ result: "success", msg: "" });
  });

  it("follows add_custom_emoji_policy: administrators only, then moderators only", async () => {
    await withRealmSettings(org, { add_custom_emoji_policy: 2 }, async () => {
      expect((await upload(org.users.member, "policy_a")).body).toEqual(err("Insufficient permission"));
      expect((await upload(org.users.moderator, "policy_a")).body).toEqual(err("Insufficient permission"));
      expect((await upload(org.users.admin, "policy_a")).body.result).toBe("success");
    });
    await withRealmSettings(org, { add_custom_emoji_policy: 4 }, async () => {
      expect((await upload(org.users.member, "policy_b")).body).toEqual(err("Insufficient permission"));
      expect((await upload(org.users.moderator, "policy_b")).body.result).toBe("success");
    });
  });
});

describe("custom emoji in messages, reactions and statuses", () => {
  it("`:name:` renders the image; reactions by name and by ID; a status with the emoji", async () => {
    const emoji = (await emojiByName("party_parrot"))!;
    const sent = await org.api(org.users.member, "POST", "/messages", {
      type: "stream",
      to: "emoji-stream",
      topic: "t",
      content: "look :party_parrot: and :no_such_one:",
    });
    expect(sent.body.result).toBe("success");
    const message = (await messageById(org.stack.deps, sent.body.id))!;
    expect(message.rendered_content).toBe(
      `<p>look <img alt=":party_parrot:" class="emoji" src="${emoji.source_url}" title="party parrot"> and :no_such_one:</p>`,
    );

    const path = `/messages/${sent.body.id}/reactions`;
    // Checked while no reaction uses the emoji (a later one with the same code is a vote and keeps the first name).
    const wrongName = { emoji_name: "other", emoji_code: emoji.id, reaction_type: "realm_emoji" };
    expect((await org.api(org.users.moderator, "POST", path, wrongName)).body).toEqual(err("Invalid custom emoji name."));
    const unknown = { emoji_name: "party_parrot", emoji_code: "999999", reaction_type: "realm_emoji" };
    expect((await org.api(org.users.moderator, "POST", path, unknown)).body).toEqual(err("Invalid custom emoji."));
    expect((await org.api(org.users.member2, "POST", path, { emoji_name: "party_parrot" })).body.result).toBe("success");
    const explicit = { emoji_name: "party_parrot", emoji_code: emoji.id, reaction_type: "realm_emoji" };
    expect((await org.api(org.users.member, "POST", path, explicit)).body.result).toBe("success");
    const reactions = messageReactions((await messageById(org.stack.deps, sent.body.id))!);
    expect(reactions.map((r) => [r.user_id, r.emoji_name, r.emoji_code, r.reaction_type])).toEqual([
      [org.users.member2.id, "party_parrot", emoji.id, "realm_emoji"],
      [org.users.member.id, "party_parrot", emoji.id, "realm_emoji"],
    ]);
    // As in Zulip, `reaction_type` defaults to `unicode_emoji` on removal; with it the name resolves to the ID.
    expect((await org.api(org.users.member2, "DELETE", path, { emoji_name: "party_parrot" })).body).toEqual(err("Reaction doesn't exist."));
    const byName = { emoji_name: "party_parrot", reaction_type: "realm_emoji" };
    expect((await org.api(org.users.member2, "DELETE", path, byName)).body.result).toBe("success");

    const status = await org.api(org.users.member, "POST", "/users/me/status", { emoji_name: "party_parrot" });
    expect(status.body.result).toBe("success");
    const reg = await org.api(org.users.member2, "POST", "/register", { fetch_event_types: JSON.stringify(["user_status"]) });
    expect(reg.body.user_status[String(org.users.member.id)]).toMatchObject({
      emoji_name: "party_parrot",
      emoji_code: emoji.id,
      reaction_type: "realm_emoji",
    });
  });
});

describe("DELETE /realm/emoji/{emoji_name}", () => {
  it("only the author or an administrator deactivates; the event, Markdown and reactions then treat it as gone", async () => {
    expect((await upload(org.users.member, "to_remove")).body.result).toBe("success");
    const emoji = (await emojiByName("to_remove"))!;
    expect((await org.api(org.users.member2, "DELETE", "/realm/emoji/to_remove")).body).toEqual(
      err("Must be an organization administrator or emoji author"),
    );
    expect((await org.api(org.users.moderator, "DELETE", "/realm/emoji/to_remove")).body).toEqual(
      err("Must be an organization administrator or emoji author"),
    );
    expect((await org.api(org.users.member, "DELETE", "/realm/emoji/to_remove")).body).toEqual({ result: "success", msg: "" });
    const event = await watcher.waitFor((e) => e.type === "realm_emoji" && e.realm_emoji[emoji.id]?.deactivated === true);
    expect(event.realm_emoji[emoji.id]).toEqual({ ...emoji, deactivated: true });
    const listed = (await org.api(org.users.member, "GET", "/realm/emoji")).body.emoji[emoji.id];
    expect(listed).toEqual({ ...emoji, deactivated: true });

    const sent = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: "emoji-stream", topic: "t", content: ":to_remove:" });
    expect((await messageById(org.stack.deps, sent.body.id))!.rendered_content).toBe("<p>:to_remove:</p>");
    const path = `/messages/${sent.body.id}/reactions`;
    expect((await org.api(org.users.member, "POST", path, { emoji_name: "to_remove" })).body).toEqual(err("Emoji 'to_remove' does not exist"));
    const byId = { emoji_name: "to_remove", emoji_code: emoji.id, reaction_type: "realm_emoji" };
    expect((await org.api(org.users.member, "POST", path, byId)).body).toEqual(err("This custom emoji has been deactivated."));
    const status = await org.api(org.users.member, "POST", "/users/me/status", byId);
    expect(status.body).toEqual(err("This custom emoji has been deactivated."));

    // The name is free again.
    expect((await upload(org.users.member2, "to_remove")).body.result).toBe("success");
    expect((await org.api(org.users.admin, "DELETE", "/realm/emoji/to_remove")).body.result).toBe("success");
  });

  it("answers 404 for a name no active emoji has", async () => {
    const res = await org.api(org.users.admin, "DELETE", "/realm/emoji/nothing_here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual(err("Emoji 'nothing_here' does not exist"));
  });
});

describe("GET /user_avatars/...", () => {
  it("serves only keys of the namespace", async () => {
    const res = await fetch(`${org.url}/user_avatars/${org.realm.id}/emoji/images/..%2F..%2Fsecret.png`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });

  it("lives at the site root only, as Zulip serves it: the API-prefixed form is no route", async () => {
    const list = (await org.api(org.users.member, "GET", "/realm/emoji")).body.emoji as Record<string, { source_url: string }>;
    const sourceUrl = Object.values(list)[0]?.source_url;
    expect(sourceUrl).toMatch(/^\/user_avatars\//);
    const root = await fetch(`${org.url}${sourceUrl}`, { redirect: "manual" });
    expect(root.status).toBe(302);
    const api = await fetch(`${org.url}/api/v1${sourceUrl}`, { redirect: "manual" });
    expect(api.status).toBe(404);
  });
});
