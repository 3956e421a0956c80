import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const client = (user: TestUser) => queueClient(org, user);

const createStream = (creator: TestUser, name: string, opts: { inviteOnly?: boolean; principals?: number[] } = {}) =>
  createStreamId(org, creator, name, opts);

async function policies(user: TestUser): Promise<[number, string, number][]> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: ["user_topic"] });
  return (res.body.user_topics as any[]).map((t) => [t.stream_id, t.topic_name, t.visibility_policy]);
}

async function setPolicy(user: TestUser, stream_id: number, topic: string, visibility_policy: number) {
  const res = await org.api(user, "POST", "/user_topics", { stream_id, topic, visibility_policy });
  expect(res.status).toBe(200);
}

async function post(user: TestUser, stream: string, topic: string): Promise<number> {
  return (await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content: "x" })).body.id as number;
}

const topicEvents = async (q: EventQueueClient) =>
  (await q.poll({ dontBlock: true })).filter((e) => e.type === "user_topic").map((e) => [e.stream_id, e.topic_name, e.visibility_policy]);

describe("moving a topic carries its visibility policies (do_update_message)", () => {
  it("a change_all rename moves muted and followed policies, with user_topic events to each user", async () => {
    // Prepare
    const owner = org.users.owner;
    const a = await org.createUser("utm-a");
    const b = await org.createUser("utm-b");
    const s = await createStream(owner, "utm-rename", { principals: [owner.id, a.id, b.id] });
    const first = await post(owner, "utm-rename", "old");
    await post(owner, "utm-rename", "old");
    await setPolicy(a, s, "old", 1);
    await setPolicy(b, s, "old", 3);
    const qa = client(a);
    await qa.register({ event_types: ["user_topic"] });
    // Act
    const res = await org.api(owner, "PATCH", `/messages/${first}`, { topic: "new", propagate_mode: "change_all" });
    // Assess
    expect(res.status).toBe(200);
    expect(await policies(a)).toEqual([[s, "new", 1]]);
    expect(await policies(b)).toEqual([[s, "new", 3]]);
    expect(await topicEvents(qa)).toEqual([[s, "old", 0], [s, "new", 1]]);
  });

  it("change_one moves no policy", async () => {
    // Prepare
    const owner = org.users.owner;
    const a = await org.createUser("utm-one");
    const s = await createStream(owner, "utm-one", { principals: [owner.id, a.id] });
    const first = await post(owner, "utm-one", "stay");
    await post(owner, "utm-one", "stay");
    await setPolicy(a, s, "stay", 1);
    // Act
    const res = await org.api(owner, "PATCH", `/messages/${first}`, { topic: "went", propagate_mode: "change_one" });
    // Assess
    expect(res.status).toBe(200);
    expect(await policies(a)).toEqual([[s, "stay", 1]]);
  });

  it("a change_all move to another stream moves the policy; an existing policy on the target wins", async () => {
    // Prepare
    const owner = org.users.owner;
    const a = await org.createUser("utm-s-a");
    const b = await org.createUser("utm-s-b");
    const from = await createStream(owner, "utm-from", { principals: [owner.id, a.id, b.id] });
    const to = await createStream(owner, "utm-to", { principals: [owner.id, a.id, b.id] });
    const first = await post(owner, "utm-from", "t");
    await setPolicy(a, from, "t", 3);
    await setPolicy(b, from, "t", 1);
    await setPolicy(b, to, "t2", 2);
    const qb = client(b);
    await qb.register({ event_types: ["user_topic"] });
    // Act
    const res = await org.api(owner, "PATCH", `/messages/${first}`, { stream_id: to, topic: "t2", propagate_mode: "change_all" });
    // Assess
    expect(res.status).toBe(200);
    expect(await policies(a)).toEqual([[to, "t2", 3]]);
    expect(await policies(b)).toEqual([[to, "t2", 2]]);
    expect(await topicEvents(qb)).toEqual([[from, "t", 0]]);
  });

  it("a user without access to a private target stream only loses the old policy", async () => {
    // Prepare
    const owner = org.users.owner;
    const a = await org.createUser("utm-p-a");
    const outsider = await org.createUser("utm-p-out");
    const from = await createStream(owner, "utm-pfrom", { principals: [owner.id, a.id, outsider.id] });
    const to = await createStream(owner, "utm-pto", { inviteOnly: true, principals: [owner.id, a.id] });
    const first = await post(owner, "utm-pfrom", "secret");
    await setPolicy(a, from, "secret", 1);
    await setPolicy(outsider, from, "secret", 1);
    const qo = client(outsider);
    await qo.register({ event_types: ["user_topic", "muted_topics"] });
    // Act
    const res = await org.api(owner, "PATCH", `/messages/${first}`, { stream_id: to, topic: "hidden", propagate_mode: "change_all" });
    // Assess
    expect(res.status).toBe(200);
    expect(await policies(a)).toEqual([[to, "hidden", 1]]);
    expect(await policies(outsider)).toEqual([]);
    const events = (await qo.poll({ dontBlock: true })).filter((e) => e.type !== "heartbeat");
    expect(JSON.stringify(events)).not.toContain("hidden");
    expect(events.filter((e) => e.type === "user_topic").map((e) => [e.topic_name, e.visibility_policy])).toEqual([["secret", 0]]);
  });
});
