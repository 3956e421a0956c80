import { describe, expect, it } from "vitest";
import { runJob } from "../../functions/worker/jobs.js";
import { MOVE_CHAIN_MAX_IDS } from "../../shared/actions/messages/edit/move-jobs.js";
import { batchWrite } from "../../shared/data/batch-write.js";
import { allocateIds } from "../../shared/data/counters.js";
import { getMessageRecipients, getMessagesByIds, messageById, messageItem, sendRecipientsItems, updateMessageItems } from "../../shared/data/messages.js";
import { getUserMessages, userMessageItem } from "../../shared/data/user-messages.js";
import type { DeferredJob } from "../../shared/deferred/jobs.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

async function send(user: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

/**
 * Adds `count` messages to the topic of `first` straight through the data
 * layer (2,000 sends over HTTP would take minutes here), each with an
 * unread row and a recipients entry for every holder.
 * @returns every ID of the topic, ascending
 */
async function seedTopic(first: number, count: number, holders: number[]): Promise<number[]> {
  const deps = org.stack.deps;
  const template = (await messageById(deps, first))!;
  const start = await allocateIds(deps, "message", count);
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const id = start + i;
    items.push(messageItem({ ...template, id, content: `bulk ${i}`, rendered_content: `<p>bulk ${i}</p>` }));
    for (const u of holders) {
      items.push(userMessageItem({ user_id: u, message_id: id, recipient_id: template.recipient_id, is_private: false, flags: [] }));
    }
    items.push(...sendRecipientsItems(id, holders));
  }
  await batchWrite(deps, items, [], 16);
  return [first, ...Array.from({ length: count }, (_, i) => start + i)];
}

/** Messages of a narrow to one stream topic, oldest first, as the member reads them. */
async function topicIds(user: TestUser, stream: string, topic: string): Promise<{ id: number; sender_id: number; content: string }[]> {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "oldest",
    num_before: 0,
    num_after: 2500,
    narrow: [{ operator: "channel", operand: stream }, { operator: "topic", operand: topic }],
    apply_markdown: false,
  });
  expect(res.body).toMatchObject({ result: "success", found_newest: true });
  return res.body.messages;
}

/**
 * Holds every deferred job the stack enqueues (recording it) until
 * `release()`, which forwards the held ones; later jobs pass straight
 * through and are recorded too.
 */
function holdDeferredWork() {
  const deferred = org.stack.deps.deferred;
  const real = deferred.enqueue.bind(deferred);
  const held: DeferredJob[] = [];
  const recorded: DeferredJob[] = [];
  let holding = true;
  deferred.enqueue = async (jobs) => {
    recorded.push(...jobs);
    if (holding) held.push(...jobs);
    else await real(jobs);
  };
  return {
    held,
    recorded,
    async release() {
      holding = false;
      await real(held.splice(0));
    },
    restore() {
      deferred.enqueue = real;
    },
  };
}

/** Counts the DynamoDB calls `act` makes (nothing else may run meanwhile). */
async function countCalls<T>(act: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const stack = org.stack.deps.db.middlewareStack;
  let calls = 0;
  const name = `count-${Math.random()}`;
  stack.add((next) => async (args) => {
    calls++;
    return next(args);
  }, { step: "initialize", name });
  try {
    return { result: await act(), calls };
  } finally {
    stack.remove(name);
  }
}

describe("moving a 2,000-message topic to another stream", () => {
  it("answers at once with a bounded request, and the chained jobs finish the move exactly once", async () => {
    const { member, member2, moderator } = org.users;
    const deps = org.stack.deps;
    const a = await createStream(org, member, "big-a", { principals: [member.id, member2.id, moderator.id] });
    const b = await createStream(org, moderator, "big-b", { principals: [moderator.id, member.id] });
    const small = await createStream(org, moderator, "big-small", { principals: [moderator.id, member.id] });
    const holders = [member.id, member2.id, moderator.id];

    // A 200-message topic moved the same way: the request's calls must not grow with the topic.
    const smallFirst = await send(member, "big-a", "modest", "seed");
    await seedTopic(smallFirst, 199, holders);
    const first = await send(member, "big-a", "huge", "seed");
    const all = await seedTopic(first, 1999, holders);
    await org.stack.drainDeferredWork();

    const unreadIds = async () =>
      [...(await getUserMessages(deps, member.id, all)).values()].filter((r) => !r.flags.includes("read")).map((r) => r.message_id).sort((x, y) => x - y);
    const unreadBefore = await unreadIds();
    expect(unreadBefore.length).toBeGreaterThanOrEqual(1999);
    const q = queueClient(org, member);
    await q.register({ event_types: ["update_message", "delete_message"] });
    const marks = await markEvents(org, [member2, moderator]);
    const hold = holdDeferredWork();
    try {
      const modest = await countCalls(() =>
        org.api(moderator, "PATCH", `/messages/${smallFirst}`, { stream_id: small.stream_id, propagate_mode: "change_all" }),
      );
      expect(modest.result.body).toEqual({ result: "success", msg: "" });
      const huge = await countCalls(() =>
        org.api(moderator, "PATCH", `/messages/${first}`, { stream_id: b.stream_id, propagate_mode: "change_all" }),
      );
      expect(huge.result.status).toBe(200);
      expect(huge.result.body).toEqual({ result: "success", msg: "" });
      // Bounded by the calls it makes, not by the clock: the same calls as for 200 messages, but for the topic read's second page (1,000 IDs per Query).
      expect(huge.calls - modest.calls).toBeLessThanOrEqual(1);
      expect(huge.calls).toBeLessThan(80);

      // Right after the answer only the target has moved; the rest waits in the queue.
      const before = await getMessagesByIds(deps, all);
      expect([...before.values()].filter((m) => m.stream_id === b.stream_id).map((m) => m.id)).toEqual([first]);
      const moves = hold.held.filter((j) => j.kind === "move_messages");
      const queued = moves.flatMap((j) => j.payload.message_ids as number[]);
      // The target too, last: it finishes the target's rows should the request end before writing them.
      expect(queued.filter((id) => all.includes(id))).toEqual([...all.slice(1), first]);
      for (const j of moves) expect((j.payload.message_ids as number[]).length).toBeLessThanOrEqual(MOVE_CHAIN_MAX_IDS);

      await hold.release();
      await org.stack.drainDeferredWork();
    } finally {
      hold.restore();
    }

    // Every message is in the new stream, none in the old, for the data layer and for GET /messages.
    const after = await getMessagesByIds(deps, all);
    expect([...after.values()].every((m) => m.stream_id === b.stream_id && m.display_recipient === "big-b")).toBe(true);
    expect(after.size).toBe(2000);
    const newTopic = await topicIds(member, "big-b", "huge");
    const notice = (m: { content: string }) => m.content.startsWith("This topic was moved");
    expect(newTopic.filter((m) => !notice(m)).map((m) => m.id)).toEqual(all);
    expect(newTopic.filter(notice).map((m) => m.content)).toEqual([
      `This topic was moved here from #**big-a>huge** by @_**${moderator.fullName}|${moderator.id}**.`,
    ]);
    const oldTopic = await topicIds(member, "big-a", "huge");
    expect(oldTopic.map((m) => m.content)).toEqual([`This topic was moved to #**big-b>huge** by @_**${moderator.fullName}|${moderator.id}**.`]);

    // Rows: the member's follow the messages (still unread), member2's (old subscriber, public destination) are gone.
    const memberRows = await getUserMessages(deps, member.id, all);
    expect(memberRows.size).toBe(2000);
    // A stream message's row names no stream: the move left it as it was (flags included).
    expect([...memberRows.values()].every((r) => r.recipient_id === undefined)).toBe(true);
    expect(await unreadIds()).toEqual(unreadBefore);
    expect((await getUserMessages(deps, member2.id, all)).size).toBe(0);
    expect((await getMessageRecipients(deps, all.at(-1)!)).userIds).toEqual([member.id, moderator.id].sort((x, y) => x - y));
    const reg = await org.api(member, "POST", "/register", { fetch_event_types: ["message", "update_message_flags"] });
    const unread = reg.body.unread_msgs.streams as { stream_id: number; topic: string; unread_message_ids: number[] }[];
    // Only the notices are new: the breadcrumb is the old topic's one unread message.
    const unreadIn = (streamId: number) => unread.find((t) => t.stream_id === streamId && t.topic === "huge")?.unread_message_ids;
    expect(unreadIn(a.stream_id)).toEqual(oldTopic.map((m) => m.id));
    expect(unreadIn(b.stream_id)).toEqual([...unreadBefore, ...newTopic.filter(notice).map((m) => m.id)]);

    // A second client saw every moved ID exactly once, in update_message events for the huge topic.
    const events = [...q.received];
    while (true) {
      const more = await q.poll({ dontBlock: true });
      if (more.length === 0) break;
      events.push(...more);
    }
    const updates = events.filter((e) => e.type === "update_message" && e.new_stream_id === b.stream_id);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    for (const e of updates) expect(e).toMatchObject({ stream_id: a.stream_id, orig_subject: "huge", propagate_mode: "change_all", message_id: first });
    expect(updates.flatMap((e) => e.message_ids as number[]).sort((x, y) => x - y)).toEqual(all);
    expect(events.filter((e) => e.type === "delete_message")).toEqual([]);
    const member2Updates = (await marks.since(member2)).filter((e) => e.type === "update_message" && e.new_stream_id === b.stream_id);
    expect(member2Updates.flatMap((e) => e.message_ids as number[]).sort((x, y) => x - y)).toEqual(all);

    // A duplicate delivery of every move job (as SQS may redeliver) changes nothing and tells nobody anything.
    const jobs = hold.recorded.filter((j) => j.kind === "move_messages" && j.payload.new_stream_id === b.stream_id);
    expect(jobs.length).toBeGreaterThan(1); // chained: each job moves a slice and enqueues the rest
    const snapshot = async () => ({
      items: [...(await getMessagesByIds(deps, all)).values()].map((m) => [m.id, m.stream_id, m.edit_history.length]),
      member: [...(await getUserMessages(deps, member.id, all)).values()].map((r) => [r.message_id, r.recipient_id, r.flags]),
      moderator: (await getUserMessages(deps, moderator.id, all)).size,
      member2: (await getUserMessages(deps, member2.id, all)).size,
    });
    const settled = await snapshot();
    const quiet = await markEvents(org, [member, member2, moderator]);
    await runJob(deps, jobs.at(-1)!);
    await runJob(deps, jobs.at(-2)!); // re-chains the tail once more
    await org.stack.drainDeferredWork();
    expect(await snapshot()).toEqual(settled);
    for (const u of [member, member2, moderator]) expect(await quiet.since(u)).toEqual([]);
  }, 600_000); // 2,200 messages seeded and moved through the queue on a shared 2-core machine
});

describe("a large stream move's jobs", () => {
  it("finish the rows of messages a cut-short try already moved, and leave messages sent meanwhile where they were sent", async () => {
    const { member, member2, moderator } = org.users;
    const deps = org.stack.deps;
    await createStream(org, member, "cut-a", { principals: [member.id, member2.id, moderator.id] });
    const b = await createStream(org, moderator, "cut-b", { invite_only: true, principals: [moderator.id, member.id] });
    const first = await send(member, "cut-a", "t", "seed");
    const all = await seedTopic(first, 149, [member.id, member2.id, moderator.id]);
    await org.stack.drainDeferredWork();
    const marks = await markEvents(org, [member2]);

    const hold = holdDeferredWork();
    try {
      const res = await org.api(moderator, "PATCH", `/messages/${first}`, {
        stream_id: b.stream_id,
        propagate_mode: "change_all",
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      });
      expect(res.body).toEqual({ result: "success", msg: "" });
      // A message sent after the answer is not part of the move: it stays in the old topic.
      const late = await send(member2, "cut-a", "t", "late");

      // A try cut short after writing the items of ten messages, before their rows.
      const [job] = hold.held.filter((j) => j.kind === "move_messages");
      const cut = (job!.payload.message_ids as number[]).slice(0, 10);
      const found = await getMessagesByIds(deps, cut);
      const entry = { user_id: moderator.id, timestamp: job!.payload.timestamp, prev_stream: found.get(cut[0]!)!.stream_id, stream: b.stream_id };
      const rewritten = [...found.values()].map((m) => ({
        before: m,
        after: { ...m, stream_id: b.stream_id, recipient_id: b.recipient_id, display_recipient: b.name, edit_history: [entry, ...m.edit_history] },
      }));
      expect(await updateMessageItems(deps, rewritten)).toHaveLength(10);

      await hold.release();
      await org.stack.drainDeferredWork();

      const moved = await getMessagesByIds(deps, all);
      expect([...moved.values()].every((m) => m.stream_id === b.stream_id)).toBe(true);
      expect([...moved.values()].every((m) => m.edit_history.length === 1)).toBe(true);
      const memberRows = await getUserMessages(deps, member.id, all);
      expect(memberRows.size).toBe(150);
      expect([...memberRows.values()].every((r) => r.recipient_id === undefined)).toBe(true);
      // member2 cannot read the private destination: every row and recipients entry is gone, cut-short ones included.
      expect((await getUserMessages(deps, member2.id, all)).size).toBe(0);
      for (const id of cut) expect((await getMessageRecipients(deps, id)).userIds).toEqual([member.id, moderator.id].sort((x, y) => x - y));
      const deleted = (await marks.since(member2)).filter((e) => e.type === "delete_message");
      expect(deleted.flatMap((e) => e.message_ids as number[]).sort((x, y) => x - y)).toEqual(all);

      expect((await messageById(deps, late))!.stream_id).not.toBe(b.stream_id);
      expect((await topicIds(member2, "cut-a", "t")).map((m) => m.id)).toEqual([late]);
    } finally {
      hold.restore();
    }
  }, 300_000);
});
