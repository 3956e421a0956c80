import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// The real client from npm, unchanged.
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const ok = { result: "success", msg: "" };

const client = (user: TestUser) => queueClient(org, user);

const createStream = (creator: TestUser, name: string, opts: { inviteOnly?: boolean; principals?: number[] } = {}) =>
  createStreamId(org, creator, name, opts);

async function registered(user: TestUser, types: string[]): Promise<Record<string, any>> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: types });
  expect(res.status).toBe(200);
  return res.body;
}

const setPolicy = (user: TestUser, stream_id: number, topic: string, visibility_policy: number) =>
  org.api(user, "POST", "/user_topics", { stream_id, topic, visibility_policy });

describe("POST /user_topics", () => {
  it("stores each policy, lists it in register and sends muted_topics then user_topic to the user's clients", async () => {
    // Prepare
    const me = await org.createUser("topic-setter");
    const other = await org.createUser("topic-bystander");
    const streamId = await createStream(me, "ut-basic", { principals: [me.id, other.id] });
    const legacy = client(me);
    const modern = client(me);
    const theirs = client(other);
    await legacy.register({ event_types: ["muted_topics"] });
    await modern.register({ event_types: ["user_topic", "muted_topics"] });
    await theirs.register({ event_types: ["user_topic", "muted_topics"] });
    // Act
    const res = await setPolicy(me, streamId, "Lunch", 1);
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok);
    const state = await registered(me, ["user_topic"]);
    expect(state.user_topics).toEqual([
      { stream_id: streamId, topic_name: "Lunch", last_updated: expect.any(Number), visibility_policy: 1 },
    ]);
    expect(state.muted_topics).toBeUndefined();
    const ts = state.user_topics[0].last_updated as number;
    expect((await registered(me, ["muted_topics"])).muted_topics).toEqual([["ut-basic", "Lunch", ts]]);
    // Both forms when neither is asked for explicitly.
    const all = await org.api(me, "POST", "/register", {});
    expect(all.body.user_topics).toHaveLength(1);
    expect(all.body.muted_topics).toEqual([["ut-basic", "Lunch", ts]]);

    expect(await legacy.waitFor((e) => e.type === "muted_topics")).toEqual({
      id: expect.any(Number),
      type: "muted_topics",
      muted_topics: [["ut-basic", "Lunch", ts]],
    });
    const events = await modern.poll({ dontBlock: true });
    expect(events.filter((e) => e.type !== "heartbeat")).toEqual([
      { id: expect.any(Number), type: "user_topic", stream_id: streamId, topic_name: "Lunch", last_updated: ts, visibility_policy: 1 },
    ]);
    expect((await theirs.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat")).toEqual([]);
  });

  it("follows, unmutes and resets a topic (case-insensitively), and an unchanged policy sends nothing", async () => {
    const me = await org.createUser("topic-follower");
    const streamId = await createStream(me, "ut-follow");
    const queue = client(me);
    await queue.register({ event_types: ["user_topic"] });

    expect((await setPolicy(me, streamId, "plans", 3)).body).toEqual(ok);
    expect((await registered(me, ["user_topic"])).user_topics).toMatchObject([{ topic_name: "plans", visibility_policy: 3 }]);
    expect((await setPolicy(me, streamId, "PLANS", 2)).body).toEqual(ok);
    expect((await registered(me, ["user_topic"])).user_topics).toMatchObject([{ topic_name: "PLANS", visibility_policy: 2 }]);
    expect((await setPolicy(me, streamId, "PLANS", 2)).body).toEqual(ok);
    expect((await setPolicy(me, streamId, "Plans", 0)).body).toEqual(ok);
    expect((await registered(me, ["user_topic"])).user_topics).toEqual([]);
    expect((await setPolicy(me, streamId, "Plans", 0)).body).toEqual(ok);

    const events = (await queue.poll({ dontBlock: true })).filter((e) => e.type === "user_topic");
    expect(events.map((e) => [e.topic_name, e.visibility_policy])).toEqual([
      ["plans", 3],
      ["PLANS", 2],
      ["Plans", 0],
    ]);
  });

  it("refuses a bad policy, an unknown stream, a private stream of others, and an empty topic, writing nothing", async () => {
    const me = await org.createUser("topic-refused");
    const streamId = await createStream(me, "ut-errors");
    const secret = await createStream(org.users.owner, "ut-secret", { inviteOnly: true });

    const bad = await setPolicy(me, streamId, "t", 4);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(err("Invalid visibility_policy"));
    expect((await setPolicy(me, 999999, "t", 1)).body).toEqual(err("Invalid channel ID"));
    expect((await setPolicy(me, secret, "t", 1)).body).toEqual(err("Invalid channel ID"));
    expect((await setPolicy(me, streamId, "  ", 1)).body).toEqual(err("Topic can't be empty!"));
    expect((await setPolicy(me, 999999, "t", 0)).body).toEqual(err("Invalid channel ID"));
    const missing = await org.api(me, "POST", "/user_topics", { stream_id: streamId, topic: "t" });
    expect(missing.body).toMatchObject({ result: "error", msg: "Missing 'visibility_policy' argument" });
    expect((await registered(me, ["user_topic"])).user_topics).toEqual([]);
  });

  it("lets a guest mute topics of streams they are subscribed to only", async () => {
    const { guest, member } = org.users;
    const open = await createStream(member, "ut-guest-open");
    const joined = await createStream(member, "ut-guest-joined", { principals: [member.id, guest.id] });
    expect((await setPolicy(guest, open, "t", 1)).body).toEqual(err("Invalid channel ID"));
    expect((await setPolicy(guest, joined, "t", 1)).body).toEqual(ok);
    await setPolicy(guest, joined, "t", 0);
  });
});

describe("PATCH /users/me/subscriptions/muted_topics", () => {
  const muteTopic = (user: TestUser, params: Record<string, unknown>) =>
    org.api(user, "PATCH", "/users/me/subscriptions/muted_topics", params);

  it("mutes by stream name or ID and unmutes, with both events", async () => {
    const me = await org.createUser("legacy-muter");
    const streamId = await createStream(me, "ut-legacy");
    const queue = client(me);
    await queue.register({ event_types: ["muted_topics", "user_topic"] });
    const legacy = client(me);
    await legacy.register({ event_types: ["muted_topics"] });

    expect((await muteTopic(me, { stream: "ut-legacy", topic: "one", op: "add" })).body).toEqual(ok);
    expect((await muteTopic(me, { stream_id: streamId, topic: "two", op: "add" })).body).toEqual(ok);
    // Already muted: success, nothing changes.
    expect((await muteTopic(me, { stream_id: streamId, topic: "two", op: "add" })).body).toEqual(ok);
    const muted = (await registered(me, ["muted_topics"])).muted_topics as [string, string, number][];
    expect(muted.map(([s, t]) => [s, t])).toEqual([
      ["ut-legacy", "one"],
      ["ut-legacy", "two"],
    ]);
    expect((await muteTopic(me, { stream: "ut-legacy", topic: "ONE", op: "remove" })).body).toEqual(ok);
    expect((await registered(me, ["muted_topics"])).muted_topics.map((m: unknown[]) => m[1])).toEqual(["two"]);

    const modern = (await queue.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat");
    expect(modern.map((e) => [e.type, e.topic_name, e.visibility_policy])).toEqual([
      ["user_topic", "one", 1],
      ["user_topic", "two", 1],
      ["user_topic", "ONE", 0],
    ]);
    const old = (await legacy.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat");
    expect(old.map((e) => e.muted_topics.map((m: unknown[]) => m[1]))).toEqual([["one"], ["one", "two"], ["two"]]);
  });

  it("refuses a missing or doubled stream, unknown or invisible streams, and a bad op", async () => {
    const me = await org.createUser("legacy-refused");
    const streamId = await createStream(me, "ut-legacy-errors");
    await createStream(org.users.owner, "ut-legacy-secret", { inviteOnly: true });

    expect((await muteTopic(me, { topic: "t", op: "add" })).body).toEqual(err("Please supply 'stream'."));
    expect((await muteTopic(me, { stream: "ut-legacy-errors", stream_id: streamId, topic: "t", op: "add" })).body).toEqual(
      err("Please choose one: 'stream' or 'stream_id'."),
    );
    expect((await muteTopic(me, { stream: "nope", topic: "t", op: "add" })).body).toEqual(err("Invalid channel name 'nope'"));
    expect((await muteTopic(me, { stream: "ut-legacy-secret", topic: "t", op: "add" })).body).toEqual(
      err("Invalid channel name 'ut-legacy-secret'"),
    );
    expect((await muteTopic(me, { stream_id: 999999, topic: "t", op: "add" })).body).toEqual(err("Invalid channel ID"));
    expect((await muteTopic(me, { stream: "nope", topic: "t", op: "remove" })).body).toEqual(err("Topic is not muted"));
    expect((await muteTopic(me, { stream_id: 999999, topic: "t", op: "remove" })).body).toEqual(err("Topic is not muted"));
    const bad = await muteTopic(me, { stream_id: streamId, topic: "t", op: "toggle" });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toBe("error");
    expect((await registered(me, ["user_topic"])).user_topics).toEqual([]);
  });
});

describe("through zulip-js", () => {
  it("follows a topic and mutes a user with callEndpoint", async () => {
    const me = await org.createUser("zulip-js-muter");
    const target = await org.createUser("zulip-js-muted");
    const streamId = await createStream(me, "ut-zulip-js");
    const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
    await writeZuliprc(join(dir, "zuliprc"), { site: org.url, email: me.email, apiKey: me.apiKey });
    const zulip = await zulipInit({ zuliprc: join(dir, "zuliprc") });

    expect(await zulip.callEndpoint("/user_topics", "POST", { stream_id: streamId, topic: "news", visibility_policy: 3 })).toEqual(ok);
    expect(await zulip.callEndpoint(`/users/me/muted_users/${target.id}`, "POST")).toEqual(ok);
    const state = await zulip.callEndpoint("/register", "POST", { fetch_event_types: JSON.stringify(["user_topic", "muted_users"]) });
    expect(state.user_topics).toMatchObject([{ stream_id: streamId, topic_name: "news", visibility_policy: 3 }]);
    expect(state.muted_users).toMatchObject([{ id: target.id }]);
    expect(await zulip.callEndpoint(`/users/me/muted_users/${target.id}`, "DELETE")).toEqual(ok);
    expect(await zulip.callEndpoint(`/users/me/muted_users/${target.id}`, "DELETE")).toEqual(err("User is not muted"));
  });
});

describe("narrow is:followed", () => {
  it("finds messages of the viewer's followed topics only (any case), and none once unfollowed", async () => {
    const me = await org.createUser("narrow-follower");
    const streamId = await createStream(me, "ut-narrow");
    const send = async (topic: string) =>
      (await org.api(me, "POST", "/messages", { type: "stream", to: "ut-narrow", topic, content: "x" })).body.id as number;
    const a = await send("Alpha");
    await send("beta");
    const a2 = await send("ALPHA");
    await setPolicy(me, streamId, "alpha", 3);
    await setPolicy(me, streamId, "beta", 1);
    const followed = async (negated = false) => {
      const res = await org.api(me, "GET", "/messages", {
        anchor: "newest",
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: "stream", operand: "ut-narrow" }, { operator: "is", operand: "followed", negated }],
      });
      expect(res.status).toBe(200);
      return (res.body.messages as { id: number }[]).map((m) => m.id);
    };
    expect(await followed()).toEqual([a, a2]);
    expect((await followed(true)).length).toBe(1);
    await setPolicy(me, streamId, "alpha", 0);
    expect(await followed()).toEqual([]);
  });
});
