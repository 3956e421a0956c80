import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import zulipInit from "zulip-js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { alertWordsOf } from "../../shared/data/alert-words.js";
import { getRealm } from "../../shared/data/realms.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { Role } from "../../shared/domain/roles.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream } from "./streams-helpers.js";

const org = useTestOrg();
const PATH = "/users/me/alert_words";

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

const add = (user: TestUser, words: unknown) => org.api(user, "POST", PATH, { alert_words: JSON.stringify(words) });
const remove = (user: TestUser, words: unknown) => org.api(user, "DELETE", PATH, { alert_words: JSON.stringify(words) });

async function flagsOf(user: TestUser, messageId: number): Promise<string[]> {
  return (await getUserMessages(org.stack.deps, user.id, [messageId])).get(messageId)!.flags;
}

async function sendTo(sender: TestUser, stream: string, content: string): Promise<number> {
  const res = await org.api(sender, "POST", "/messages", { type: "stream", to: stream, topic: "alerts", content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

beforeAll(async () => {
  const { member, member2, guest } = org.users;
  await createStream(org, member, "alert-stream", { principals: [member.id, member2.id, guest.id] });
});

describe("alert words endpoints", () => {
  it("a realm without alert words sends without reading any and sets no flag", async () => {
    const { member, member2 } = org.users;
    expect((await getRealm(org.stack.deps, org.realm.id))!.alert_words_in_use).toBeUndefined();
    const id = await sendTo(member, "alert-stream", "nothing special");
    expect(await flagsOf(member2, id)).not.toContain("has_alert_word");
  });

  it("GET answers an empty list before any change", async () => {
    const res = await org.api(org.users.moderator, "GET", PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", alert_words: [] });
  });

  it("POST adds trimmed words, skips empty and case-insensitive duplicates, answers the whole list", async () => {
    const user = await org.createUser("alerts-add");
    let res = await add(user, ["Foo", "  bar  ", "", "   "]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", alert_words: ["Foo", "bar"] });
    res = await add(user, ["FOO", "baz", "Baz", "BAZ"]);
    expect(res.body).toEqual({ result: "success", msg: "", alert_words: ["Foo", "bar", "BAZ"] });
    expect(await alertWordsOf(org.stack.deps, user.id)).toEqual(["Foo", "bar", "BAZ"]);
    expect((await org.api(user, "GET", PATH)).body.alert_words).toEqual(["Foo", "bar", "BAZ"]);
    expect((await getRealm(org.stack.deps, org.realm.id))!.alert_words_in_use).toBe(true);
  });

  it("DELETE removes words case-insensitively, ignores unknown ones, answers the whole list", async () => {
    const user = await org.createUser("alerts-remove");
    await add(user, ["one", "Two", "three"]);
    const res = await remove(user, ["TWO", "four"]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", alert_words: ["one", "three"] });
    expect(await alertWordsOf(org.stack.deps, user.id)).toEqual(["one", "three"]);
  });

  it("refuses a word over 100 characters, writing nothing", async () => {
    const user = await org.createUser("alerts-long");
    await add(user, ["keep"]);
    const res = await add(user, ["x".repeat(101)]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "alert_words[0] is too long (limit: 100 characters)" });
    const second = await add(user, ["ok", "y".repeat(101)]);
    expect(second.body.msg).toBe("alert_words[1] is too long (limit: 100 characters)");
    expect(await alertWordsOf(org.stack.deps, user.id)).toEqual(["keep"]);
    expect((await add(user, ["z".repeat(100)])).status).toBe(200);
  });

  it("refuses a missing or malformed alert_words", async () => {
    const user = org.users.member2;
    let res = await org.api(user, "POST", PATH, {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'alert_words' argument", var_name: "alert_words" });
    res = await org.api(user, "DELETE", PATH, {});
    expect(res.body.msg).toBe("Missing 'alert_words' argument");
    res = await org.api(user, "POST", PATH, { alert_words: "not json" });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Argument "alert_words" is not valid JSON.');
    res = await add(user, "word");
    expect(res.body.msg).toBe("alert_words is not a list");
    res = await add(user, [1]);
    expect(res.body.msg).toBe("alert_words[0] is not a string");
  });

  it("refuses more than 1,000 words in one request or in the list, writing nothing", async () => {
    const user = await org.createUser("alerts-many");
    const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    let res = await add(user, words(1001, "w"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid alert_words" });
    expect(await alertWordsOf(org.stack.deps, user.id)).toBeUndefined();
    expect((await add(user, words(1000, "a"))).status).toBe(200);
    res = await add(user, ["one more"]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Too many alert words (limit: 1000)" });
    expect(await alertWordsOf(org.stack.deps, user.id)).toHaveLength(1000);
  });

  it("guests and bots keep their own alert words", async () => {
    expect((await add(org.users.guest, ["guestword"])).body.alert_words).toEqual(["guestword"]);
    expect((await add(org.users.bot, ["botword"])).body.alert_words).toEqual(["botword"]);
    expect((await org.api(org.users.bot, "GET", PATH)).body.alert_words).toEqual(["botword"]);
  });
});

describe("alert_words events and register", () => {
  it("each change reaches the user's own clients only, and register shows the list", async () => {
    const user = await org.createUser("alerts-events");
    const other = await org.createUser("alerts-other");
    const [mine, mine2, theirs] = [client(user), client(user), client(other)];
    await mine.register({ event_types: ["alert_words"] });
    await mine2.register({ event_types: ["alert_words"] });
    await theirs.register({ event_types: ["alert_words"] });

    await add(user, ["apple", "pear"]);
    for (const c of [mine, mine2]) {
      const event = await c.waitFor((e) => e.type === "alert_words");
      expect(event).toEqual({ id: expect.any(Number), type: "alert_words", alert_words: ["apple", "pear"] });
    }
    await remove(user, ["apple"]);
    expect(await mine.waitFor((e) => e.type === "alert_words")).toEqual({
      id: expect.any(Number),
      type: "alert_words",
      alert_words: ["pear"],
    });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "alert_words")).toEqual([]);

    const fresh = client(user);
    const state = await fresh.register({ fetch_event_types: ["alert_words"] });
    expect(state.alert_words).toEqual(["pear"]);
    expect((await client(other).register({ fetch_event_types: ["alert_words"] })).alert_words).toEqual([]);
  });
});

describe("has_alert_word", () => {
  let watcher: TestUser;

  beforeAll(async () => {
    watcher = org.users.member2;
    await add(watcher, ["deploy", "Big Bang", "c++"]);
  });

  const cases: [string, boolean][] = [
    ["time to deploy", true],
    ["DEPLOY now", true],
    ["(deploy), then", true],
    ["did you deploy?", true],
    ["a big bang theory", true],
    ["redeploy it", false],
    ["deployment soon", false],
    ["deploy-ish", false],
    ["learn c++ today", true],
    ["```\ndeploy\n```", false],
    ["~~~python\nwe deploy\n~~~\nafter", false],
    ["```quote\nplease deploy\n```", true],
    ["inline `deploy` code", false],
    ["`make` then deploy", true],
  ];
  for (const [content, alerted] of cases) {
    it(`${alerted ? "flags" : "does not flag"} ${JSON.stringify(content)}`, async () => {
      const id = await sendTo(org.users.member, "alert-stream", content);
      expect((await flagsOf(watcher, id)).includes("has_alert_word")).toBe(alerted);
      expect(await flagsOf(org.users.guest, id)).not.toContain("has_alert_word");
    });
  }

  it("direct messages flag the recipient whose words occur, and the message event carries the flag", async () => {
    const queue = client(watcher);
    await queue.register({ event_types: ["message"] });
    const res = await org.api(org.users.member, "POST", "/messages", {
      type: "direct",
      to: JSON.stringify([watcher.id]),
      content: "ready to deploy",
    });
    const id = res.body.id as number;
    expect(await flagsOf(watcher, id)).toContain("has_alert_word");
    expect(await flagsOf(org.users.member, id)).not.toContain("has_alert_word");
    const event = await queue.waitFor((e) => e.type === "message" && e.message.id === id);
    expect(event.flags).toContain("has_alert_word");
  });

  it("an edit recomputes the flag: rows and update_message events follow", async () => {
    const id = await sendTo(org.users.member, "alert-stream", "nothing yet");
    expect(await flagsOf(watcher, id)).not.toContain("has_alert_word");
    const queue = client(watcher);
    await queue.register({ event_types: ["update_message"] });
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "now deploy" })).body.result).toBe("success");
    expect(await flagsOf(watcher, id)).toContain("has_alert_word");
    const event = await queue.waitFor((e) => e.type === "update_message" && e.message_id === id);
    expect(event.flags).toContain("has_alert_word");

    await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "no longer" });
    expect(await flagsOf(watcher, id)).not.toContain("has_alert_word");
    const second = await queue.waitFor((e) => e.type === "update_message" && e.content === "no longer");
    expect(second.flags).not.toContain("has_alert_word");
  });

  it("on a large stream the expand_stream_message job sets the flag", async () => {
    const crowd = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        doCreateUser(org.stack.deps, org.realm, { email: `aw-crowd-${i}@test.example`, full_name: `AW Crowd ${i}`, role: Role.MEMBER }),
      ),
    );
    const { member } = org.users;
    await createStream(org, member, "alert-crowd", { principals: [member.id, watcher.id, ...crowd.map((u) => u.user_id)] });
    await org.stack.drainDeferredWork();
    const crowdUser = { id: crowd[7]!.user_id, email: crowd[7]!.delivery_email, apiKey: crowd[7]!.api_key, fullName: "", role: 400 };
    await add(crowdUser, ["crowdword"]);
    const id = await sendTo(member, "alert-crowd", "deploy the crowdword");
    await org.stack.drainDeferredWork();
    expect(await flagsOf(watcher, id)).toContain("has_alert_word");
    expect(await flagsOf(crowdUser, id)).toContain("has_alert_word");
    expect(await flagsOf({ ...crowdUser, id: crowd[8]!.user_id }, id)).not.toContain("has_alert_word");
  }, 120_000);

  it("is:alerted narrows to has_alert_word messages, not mentions", async () => {
    const alerted = await sendTo(org.users.member, "alert-stream", "deploy again");
    const mention = await sendTo(org.users.member, "alert-stream", `@**${watcher.fullName}** hi`);
    const res = await org.api(watcher, "GET", "/messages", {
      anchor: "newest",
      num_before: 1000,
      num_after: 0,
      narrow: JSON.stringify([{ operator: "is", operand: "alerted" }]),
    });
    const ids = (res.body.messages as { id: number; flags: string[] }[]).map((m) => m.id);
    expect(ids).toContain(alerted);
    expect(ids).not.toContain(mention);
    for (const m of res.body.messages as { flags: string[] }[]) expect(m.flags).toContain("has_alert_word");

    const queue = client(watcher);
    await queue.register({ event_types: ["message"], narrow: JSON.stringify([["is", "alerted"]]) });
    await sendTo(org.users.member, "alert-stream", `@**${watcher.fullName}** again`);
    const later = await sendTo(org.users.member, "alert-stream", "deploy once more");
    const event = await queue.waitFor((e) => e.type === "message");
    expect(event.message.id).toBe(later);
  });
});

describe("zulip-js", () => {
  it("adds and reads alert words through callEndpoint", async () => {
    const user = await org.createUser("alerts-zulipjs");
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    const path = join(dir, "zuliprc");
    await writeFile(path, `[api]\nemail=${user.email}\nkey=${user.apiKey}\nsite=${org.url}\n`);
    const zulip = await zulipInit({ zuliprc: path });
    const added = await zulip.callEndpoint("/users/me/alert_words", "POST", { alert_words: JSON.stringify(["js"]) });
    expect(added).toEqual({ result: "success", msg: "", alert_words: ["js"] });
    const got = await zulip.callEndpoint("/users/me/alert_words", "GET", {});
    expect(got).toEqual({ result: "success", msg: "", alert_words: ["js"] });
  });
});
