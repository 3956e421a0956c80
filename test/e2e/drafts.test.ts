import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { listUserDrafts } from "../../shared/data/drafts.js";
import { systemClock } from "../../shared/deps.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

const err = (msg: string, status = 400) => ({ status, body: { result: "error", msg, code: "BAD_REQUEST" } });
const ok = { status: 200, body: { result: "success", msg: "" } };

function client(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

/** Status and body of a response, for one `toEqual`. */
async function answer(res: Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const { status, body } = await res;
  return { status, body };
}

/** The user's stored drafts, in ID order. */
const stored = (user: TestUser) => listUserDrafts(org.stack.deps, user.id);

/** A fixed server clock (in the past: event-log keys carry the writer's clock). */
const T0 = Math.floor(Date.now() / 1000) - 3600;
afterEach(() => {
  org.stack.deps.clock = systemClock;
});

async function streamId(creator: TestUser, name: string, inviteOnly = false): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    ...(inviteOnly ? { invite_only: true } : {}),
  });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

const create = (user: TestUser, drafts: unknown[]) => org.api(user, "POST", "/drafts", { drafts });

describe("POST /drafts", () => {
  it("creates drafts, answers their ids in order and tells only the user's clients", async () => {
    const me = await org.createUser("drafter");
    const other = await org.createUser("drafter-peer");
    const sid = await streamId(me, "drafts-public");
    const mine = client(me);
    const theirs = client(other);
    await mine.register({ event_types: ["drafts"] });
    await theirs.register({ event_types: ["drafts"] });
    const before = Math.floor(Date.now() / 1000);

    const res = await create(me, [
      { type: "stream", to: [sid], topic: "plans", content: "Draft one  \n" },
      { type: "private", to: [other.id, me.id, other.id], topic: "ignored", content: "hi", timestamp: 1595479019 },
      { type: "", to: [5], topic: "x", content: "loose" },
      { type: "private", to: [], topic: "", content: "nobody yet" },
    ]);

    expect(res.status).toBe(200);
    const ids = res.body.ids as number[];
    expect(res.body).toEqual({ result: "success", msg: "", ids });
    expect(ids).toHaveLength(4);
    expect(ids[1]).toBe(ids[0]! + 1);
    const event = await mine.waitFor((e) => e.type === "drafts");
    // The server's clock fills in missing timestamps.
    const now = event.drafts[0].timestamp as number;
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    const T = now;
    const expected = [
      { id: ids[0], type: "stream", to: [sid], topic: "plans", content: "Draft one", timestamp: T },
      { id: ids[1], type: "private", to: [other.id], topic: "", content: "hi", timestamp: 1595479019 },
      { id: ids[2], type: "", to: [], topic: "", content: "loose", timestamp: T },
      { id: ids[3], type: "", to: [], topic: "", content: "nobody yet", timestamp: T },
    ];
    expect(event).toEqual({ id: event.id, type: "drafts", op: "add", drafts: expected });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "drafts")).toEqual([]);

    const list = await org.api(me, "GET", "/drafts");
    expect(list.status).toBe(200);
    // Most recently edited first; equal times: the newer draft first.
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      count: 4,
      drafts: [expected[3], expected[2], expected[0], expected[1]],
    });
    expect((await org.api(other, "GET", "/drafts")).body).toMatchObject({ count: 0, drafts: [] });
  });

  it("stores a draft to oneself with the user's own ID, and a group draft without it, sorted", async () => {
    const me = await org.createUser("selfdrafter");
    const res = await create(me, [
      { type: "private", to: [me.id], topic: "", content: "note to self" },
      { type: "private", to: [org.users.member2.id, me.id, org.users.member.id], topic: "", content: "group" },
    ]);
    expect(res.status).toBe(200);
    expect((await stored(me)).map((d) => d.to)).toEqual([[me.id], [org.users.member.id, org.users.member2.id].sort((a, b) => a - b)]);
  });

  it("truncates a long topic to 57 characters and three dots, and long content like a message", async () => {
    const me = await org.createUser("longdrafter");
    const sid = await streamId(me, "drafts-long");
    const res = await create(me, [{ type: "stream", to: [sid], topic: "t".repeat(70), content: "c".repeat(10_050) }]);
    expect(res.status).toBe(200);
    const [draft] = await stored(me);
    expect(draft!.topic).toBe(`${"t".repeat(57)}...`);
    expect(draft!.content.endsWith("\n[message truncated]")).toBe(true);
    expect(Buffer.byteLength(draft!.content)).toBeLessThanOrEqual(10_000);
  });

  it("answers an empty list with no ids, and a missing list the same", async () => {
    const me = await org.createUser("emptydrafter");
    expect(await answer(create(me, []))).toEqual({ status: 200, body: { result: "success", msg: "", ids: [] } });
    expect(await answer(org.api(me, "POST", "/drafts"))).toEqual({ status: 200, body: { result: "success", msg: "", ids: [] } });
    expect(await stored(me)).toEqual([]);
  });

  it("refuses each invalid draft with Zulip's message and writes nothing", async () => {
    const me = await org.createUser("baddrafter");
    const sid = await streamId(me, "drafts-checks");
    const secret = await streamId(org.users.owner, "drafts-secret", true);
    await org.api(org.users.admin, "DELETE", `/users/${(await org.createUser("drafts-gone")).id}`);
    const gone = (await org.api(me, "GET", "/users")).body.members.find((u: any) => u.full_name === "drafts-gone");
    const goneId = gone?.user_id as number;
    const good = { type: "stream", to: [sid], topic: "ok", content: "fine" };
    const cases: [unknown, { status: number; body: unknown }][] = [
      [{ ...good, content: "  \n" }, err("Message must not be empty")],
      [{ ...good, content: "a\u0000b" }, err("Message must not contain null bytes")],
      [{ ...good, timestamp: -1 }, err("Timestamp must not be negative.")],
      [{ ...good, topic: "a\u0000b" }, err("Topic must not contain null bytes")],
      [{ ...good, to: [] }, err("Must specify exactly 1 channel ID for channel messages")],
      [{ ...good, to: [sid, sid] }, err("Must specify exactly 1 channel ID for channel messages")],
      [{ ...good, to: [secret] }, { status: 400, body: { result: "error", msg: `Channel with ID '${secret}' does not exist`, code: "STREAM_DOES_NOT_EXIST", stream_id: secret } }],
      [{ type: "private", to: [99_999_999], topic: "", content: "x" }, err("Invalid user ID 99999999")],
      [{ type: "private", to: [goneId], topic: "", content: "x" }, err("'drafts-gone@test.example' is no longer using Zulip.")],
      [{ ...good, type: "direct" }, err('Invalid drafts[1]["type"]')],
      [{ ...good, id: 5 }, err("Invalid drafts[1]")],
    ];
    for (const [bad, expected] of cases) {
      const res = await answer(create(me, [good, bad]));
      expect(res, JSON.stringify(bad)).toEqual(expected);
    }
    expect(await answer(org.api(me, "POST", "/drafts", { drafts: "nope" }))).toEqual(err('Argument "drafts" is not valid JSON.'));
    const many = Array.from({ length: 101 }, () => good);
    expect(await answer(create(me, many))).toEqual(err("At most 100 drafts can be created at once"));
    expect(await stored(me)).toEqual([]);
  });

  it("refuses a guest's draft to a public stream the guest cannot see", async () => {
    const sid = await streamId(org.users.owner, "drafts-not-for-guests");
    const res = await answer(create(org.users.guest, [{ type: "stream", to: [sid], topic: "t", content: "c" }]));
    expect(res.body).toMatchObject({ result: "error", code: "STREAM_DOES_NOT_EXIST" });
    expect(await stored(org.users.guest)).toEqual([]);
  });
});

describe("PATCH /drafts/{draft_id}", () => {
  it("replaces the draft and sends drafts update to the user's clients only", async () => {
    const me = await org.createUser("editor");
    const sid = await streamId(me, "drafts-edit");
    const [id] = (await create(me, [{ type: "private", to: [org.users.member.id], topic: "", content: "v1" }])).body.ids;
    const mine = client(me);
    const theirs = client(org.users.member);
    await mine.register({ event_types: ["drafts"] });
    await theirs.register({ event_types: ["drafts"] });

    const res = await org.api(me, "PATCH", `/drafts/${id}`, {
      draft: { type: "stream", to: [sid], topic: "moved", content: "v2", timestamp: T0 + 60 },
    });

    expect({ status: res.status, body: res.body }).toEqual(ok);
    const draft = { id, type: "stream", to: [sid], topic: "moved", content: "v2", timestamp: T0 + 60 };
    const event = await mine.waitFor((e) => e.type === "drafts");
    expect(event).toEqual({ id: event.id, type: "drafts", op: "update", draft });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "drafts")).toEqual([]);
    expect((await org.api(me, "GET", "/drafts")).body.drafts).toEqual([draft]);
  });

  it("answers Draft does not exist (404) for an unknown ID and for another user's draft", async () => {
    const me = await org.createUser("editor-2");
    const [id] = (await create(org.users.member2, [{ type: "", to: [], topic: "", content: "theirs" }])).body.ids;
    const draft = { type: "", to: [], topic: "", content: "mine now" };
    expect(await answer(org.api(me, "PATCH", `/drafts/${id}`, { draft }))).toEqual(err("Draft does not exist", 404));
    expect(await answer(org.api(me, "PATCH", "/drafts/99999999", { draft }))).toEqual(err("Draft does not exist", 404));
    expect((await stored(org.users.member2)).find((d) => d.id === id)?.content).toBe("theirs");
    expect(await stored(me)).toEqual([]);
  });

  it("checks the replacement like a new draft, and requires it", async () => {
    const me = await org.createUser("editor-3");
    const [id] = (await create(me, [{ type: "", to: [], topic: "", content: "keep" }])).body.ids;
    expect(await answer(org.api(me, "PATCH", `/drafts/${id}`, { draft: { type: "", to: [], topic: "", content: "" } }))).toEqual(
      err("Message must not be empty"),
    );
    const missing = await answer(org.api(me, "PATCH", `/drafts/${id}`));
    expect(missing).toEqual({
      status: 400,
      body: { result: "error", msg: "Missing 'draft' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "draft" },
    });
    expect((await stored(me)).map((d) => d.content)).toEqual(["keep"]);
  });
});

describe("DELETE /drafts/{draft_id}", () => {
  it("deletes the draft and sends drafts remove to the user's clients only", async () => {
    const me = await org.createUser("deleter");
    const [a, b] = (await create(me, [
      { type: "", to: [], topic: "", content: "a" },
      { type: "", to: [], topic: "", content: "b" },
    ])).body.ids;
    const mine = client(me);
    const theirs = client(org.users.member);
    await mine.register({ event_types: ["drafts"] });
    await theirs.register({ event_types: ["drafts"] });

    const res = await org.api(me, "DELETE", `/drafts/${a}`);

    expect({ status: res.status, body: res.body }).toEqual(ok);
    const event = await mine.waitFor((e) => e.type === "drafts");
    expect(event).toEqual({ id: event.id, type: "drafts", op: "remove", draft_id: a });
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type === "drafts")).toEqual([]);
    expect((await stored(me)).map((d) => d.id)).toEqual([b]);
    expect(await answer(org.api(me, "DELETE", `/drafts/${a}`))).toEqual(err("Draft does not exist", 404));
  });

  it("does not delete another user's draft", async () => {
    const me = await org.createUser("deleter-2");
    const [id] = (await create(org.users.member2, [{ type: "", to: [], topic: "", content: "safe" }])).body.ids;
    expect(await answer(org.api(me, "DELETE", `/drafts/${id}`))).toEqual(err("Draft does not exist", 404));
    expect((await stored(org.users.member2)).some((d) => d.id === id)).toBe(true);
  });
});

describe("drafts in register and enable_drafts_synchronization", () => {
  it("register lists the user's drafts, newest edit first", async () => {
    const me = await org.createUser("registrant");
    org.stack.deps.clock = { now: () => T0 * 1000 };
    const [a] = (await create(me, [{ type: "", to: [], topic: "", content: "older", timestamp: T0 - 10 }])).body.ids;
    const [b] = (await create(me, [{ type: "", to: [], topic: "", content: "newer" }])).body.ids;
    const state = await client(me).register({ fetch_event_types: ["drafts"] });
    expect(state.drafts).toEqual([
      { id: b, type: "", to: [], topic: "", content: "newer", timestamp: T0 },
      { id: a, type: "", to: [], topic: "", content: "older", timestamp: T0 - 10 },
    ]);
  });

  it("turning synchronization off deletes every draft without an event, empties register, and the endpoints refuse", async () => {
    const me = await org.createUser("unsyncer");
    const [id] = (await create(me, [{ type: "", to: [], topic: "", content: "doomed" }])).body.ids;
    const mine = client(me);
    await mine.register({ event_types: ["drafts"] });

    const res = await org.api(me, "PATCH", "/settings", { enable_drafts_synchronization: false });

    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await stored(me)).toEqual([]);
    expect((await mine.poll({ dontBlock: true })).filter((e) => e.type === "drafts")).toEqual([]);
    expect((await client(me).register({ fetch_event_types: ["drafts"] })).drafts).toEqual([]);
    const disabled = err("User has disabled synchronizing drafts.");
    const draft = { type: "", to: [], topic: "", content: "x" };
    expect(await answer(org.api(me, "GET", "/drafts"))).toEqual(disabled);
    expect(await answer(create(me, [draft]))).toEqual(disabled);
    expect(await answer(org.api(me, "PATCH", `/drafts/${id}`, { draft }))).toEqual(disabled);
    expect(await answer(org.api(me, "DELETE", `/drafts/${id}`))).toEqual(disabled);
    expect(await stored(me)).toEqual([]);

    // Turned back on, drafts work again from an empty list.
    await org.api(me, "PATCH", "/settings", { enable_drafts_synchronization: true });
    expect((await create(me, [draft])).status).toBe(200);
    expect((await org.api(me, "GET", "/drafts")).body.count).toBe(1);
  });
});

describe("zulip-js", () => {
  it("creates and lists drafts through callEndpoint", async () => {
    const me = await org.createUser("jsdrafter");
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    const path = join(dir, "zuliprc");
    await writeZuliprc(path, { site: org.url, email: me.email, apiKey: me.apiKey });
    const zulip = await zulipInit({ zuliprc: path });
    const created = await zulip.callEndpoint("/drafts", "POST", {
      drafts: JSON.stringify([{ type: "", to: [], topic: "", content: "from zulip-js" }]),
    });
    expect(created).toMatchObject({ result: "success", ids: [expect.any(Number)] });
    const listed = await zulip.callEndpoint("/drafts", "GET", {});
    expect(listed).toMatchObject({ result: "success", count: 1, drafts: [{ id: created.ids[0], content: "from zulip-js" }] });
  });
});
