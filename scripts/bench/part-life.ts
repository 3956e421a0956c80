/**
 * Part 3 of the bench (issue "Message life": edits, reactions, flags, bulk
 * read marking and topic moves):
 *
 * - single-message operations — content edit, add / remove reaction,
 *   star / unstar, mark one read — each run one at a time on messages of a
 *   10-subscriber stream, once in a stream holding 100 messages of history
 *   and once in one holding {@link Sizes.lifeHistory}, so the table shows
 *   that their DynamoDB round trips do not depend on the history size;
 * - bulk operations — `POST /mark_all_as_read` over a user's
 *   {@link Sizes.lifeUnread} unread messages, a `change_all` topic move
 *   of {@link Sizes.lifeMove} messages and a `change_all` move of a
 *   {@link Sizes.lifeStreamMove}-message topic to another stream, both
 *   streams with {@link Sizes.lifeStreamMoveSubscribers} subscribers
 *   (`stream-move.ts`) — timed from the request until the SQS jobs that
 *   continue them have drained, as items per second.
 *
 * History is loaded through the data layer (`loadHistory`); the messages
 * the operations act on are sent over HTTP, so they have every row and
 * recipients item a real send writes.
 */
import { countTopicMessages } from "../../shared/data/messages.js";
import { countUnreadRows } from "../../shared/data/user-messages.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import type { UserRecord } from "../../shared/data/records/user.js";

import type { Sizes } from "./args.js";
import { ApiClient, type ApiResult, type Credentials } from "./http.js";
import { addTotals, diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { benchUser, createUsers, loadHistory, subscribeUsers } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { prepareStreamMove, STREAM_MOVE_STREAMS, STREAM_MOVE_TOPIC } from "./stream-move.js";
import { fmt, fmtMs, renderTable, type Cell } from "./table.js";

/** Stream names this part uses (created at setup, before any bulk user). */
export const LIFE_STREAMS = {
  short: "bench-life-short",
  long: "bench-life-long",
  unread: "bench-life-unread",
  move: "bench-life-move",
  streamMoveFrom: STREAM_MOVE_STREAMS.from,
  streamMoveTo: STREAM_MOVE_STREAMS.to,
} as const;

/** Messages of history in the "short" condition. */
const SHORT_HISTORY = 100;
/** Subscribers of each single-operation stream. */
const SUBSCRIBERS = 10;
/** Unmeasured operations of each kind before the measured ones (JIT, connections). */
const WARMUP = 3;

/** The single-message operations, in the order they run on each message. */
export const LIFE_OPS = ["edit content", "add reaction", "remove reaction", "star", "unstar", "mark one read"] as const;
export type LifeOp = (typeof LIFE_OPS)[number];

/** One operation in one history condition. */
export interface LifeOpCell {
  ops: number;
  errors: number;
  errorSamples: string[];
  latency: LatencySummary;
  /** Request-path work while the operations ran; job work until the backlog drained. */
  meter: MeterDelta;
}

export interface LifeOpRow {
  op: LifeOp;
  short: LifeOpCell;
  long: LifeOpCell;
}

/** One bulk operation, timed from the request until the deferred work drained. */
export interface BulkRow {
  name: string;
  items: number;
  /** Latency of the HTTP request itself, ms. */
  requestMs: number;
  /** Request start until the job backlog drained, ms (undefined: drain timed out). */
  totalMs: number | undefined;
  /** What the request answered (status and `complete` when present). */
  answer: string;
  meter: MeterDelta;
  /** Items not in the expected end state afterwards (unread rows left / messages not in the new topic). */
  leftOver: number;
}

export interface LifeResult {
  ops: LifeOpRow[];
  bulk: BulkRow[];
  history: { short: number; long: number; unread: number; move: number; loadMs: number };
}

function checkOk(r: ApiResult, what: string): void {
  if (r.status !== 200 || r.body.result !== "success") throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

/**
 * Runs part 3.
 * @param log progress lines (stderr)
 */
export async function runLifePart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<LifeResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const api = new ApiClient(stack.url);
  try {
    // --- users, subscriptions, history --------------------------------------
    const t0 = performance.now();
    const shortUsers = await createUsers(deps, realm, "life-short", SUBSCRIBERS);
    const longUsers = await createUsers(deps, realm, "life-long", SUBSCRIBERS);
    const [reader] = await createUsers(deps, realm, "life-reader", 1);
    const writers = await createUsers(deps, realm, "life-writer", 3);
    const streams = {
      short: bench.streams.get(LIFE_STREAMS.short)!,
      long: bench.streams.get(LIFE_STREAMS.long)!,
      unread: bench.streams.get(LIFE_STREAMS.unread)!,
      move: bench.streams.get(LIFE_STREAMS.move)!,
    };
    await subscribeUsers(deps, streams.short, shortUsers);
    await subscribeUsers(deps, streams.long, longUsers);
    await subscribeUsers(deps, streams.unread, [reader!, ...writers]);
    await subscribeUsers(deps, streams.move, [bench.owner, ...writers]);
    const plan = { topics: 20, dmShare: 0, starredShare: 0, unreadShare: 0, searchShare: 0, batchSize: 250, parallel: 6 };
    // The second user of each stream is the one who reacts and flags: their
    // own partition holds the history's rows too (the first user sends).
    log(`loading ${SHORT_HISTORY} + ${sizes.lifeHistory} messages of history, ${sizes.lifeUnread} unread, ${sizes.lifeMove} to move`);
    await loadHistory(deps, realm, streams.short, shortUsers[1]!, [shortUsers[0]!, ...shortUsers.slice(2)], { ...plan, messages: SHORT_HISTORY });
    await loadHistory(deps, realm, streams.long, longUsers[1]!, [longUsers[0]!, ...longUsers.slice(2)], { ...plan, messages: sizes.lifeHistory });
    // unreadShare 1: every one of the reader's rows is unread.
    await loadHistory(deps, realm, streams.unread, reader!, writers, { ...plan, topics: 10, unreadShare: 1, messages: sizes.lifeUnread });
    // One topic: the whole history of the move stream is "topic 0".
    await loadHistory(deps, realm, streams.move, writers[0]!, writers, { ...plan, topics: 1, messages: sizes.lifeMove });
    const loadMs = performance.now() - t0;
    log(`loaded in ${(loadMs / 1000).toFixed(1)} s`);

    // --- single-message operations -------------------------------------------
    const perCondition = WARMUP + sizes.lifeOps;
    const targets: Record<"short" | "long", number[]> = { short: [], long: [] };
    for (const cond of ["short", "long"] as const) {
      const sender = benchUser((cond === "short" ? shortUsers : longUsers)[0]!);
      for (let i = 0; i < perCondition; i++) {
        const r = await api.call(sender, "POST", "/messages", { type: "stream", to: streams[cond].name, topic: "life", content: `life target ${i}` });
        checkOk(r, "POST /messages");
        targets[cond].push(r.body.id as number);
      }
    }
    await drainDeferred(stack, sizes.drainTimeoutMs);
    // After the events part, long polls its clients abandoned are still held
    // server-side and re-read their logs until their hold ends: wait until
    // no request-path call happens for a while, or they would be counted here.
    const quietMs = await waitForQuiet(bench, 6_000, 90_000);
    log(`request path quiet after ${(quietMs / 1000).toFixed(1)} s`);

    const run = async (op: LifeOp, user: Credentials, id: number): Promise<ApiResult> => {
      switch (op) {
        case "edit content":
          return api.call(user, "PATCH", `/messages/${id}`, { content: `edited ${id}` });
        case "add reaction":
          return api.call(user, "POST", `/messages/${id}/reactions`, { emoji_name: "smile" });
        case "remove reaction":
          return api.call(user, "DELETE", `/messages/${id}/reactions`, { emoji_name: "smile" });
        case "star":
          return api.call(user, "POST", "/messages/flags", { messages: [id], op: "add", flag: "starred" });
        case "unstar":
          return api.call(user, "POST", "/messages/flags", { messages: [id], op: "remove", flag: "starred" });
        case "mark one read":
          return api.call(user, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
      }
    };
    const ops: LifeOpRow[] = [];
    for (const op of LIFE_OPS) {
      const cells = {} as Record<"short" | "long", LifeOpCell>;
      for (const cond of ["short", "long"] as const) {
        const members = cond === "short" ? shortUsers : longUsers;
        // The sender edits; the second subscriber (unread rows) reacts and flags.
        const actor = benchUser(members[op === "edit content" ? 0 : 1]!);
        const ids = targets[cond];
        for (let i = 0; i < WARMUP; i++) checkOk(await run(op, actor, ids[i]!), `${op} (warm-up)`);
        await drainDeferred(stack, sizes.drainTimeoutMs);
        log(`${op}: ${sizes.lifeOps} operations, ${cond === "short" ? SHORT_HISTORY : sizes.lifeHistory} messages of history`);
        const before = meter.snapshot();
        const latencies: number[] = [];
        const errorSamples: string[] = [];
        let errors = 0;
        for (let i = WARMUP; i < ids.length; i++) {
          const r = await run(op, actor, ids[i]!);
          if (r.status === 200 && r.body.result === "success") latencies.push(r.ms);
          else {
            errors++;
            if (errorSamples.length < 3) errorSamples.push(`HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          }
        }
        const done = meter.snapshot();
        await drainDeferred(stack, sizes.drainTimeoutMs);
        const window = diff(done, before);
        const tail = diff(meter.snapshot(), done);
        cells[cond] = {
          ops: ids.length - WARMUP,
          errors,
          errorSamples,
          latency: summarize(latencies),
          meter: {
            elapsedMs: window.elapsedMs,
            request: window.request,
            deferred: addTotals(window.deferred, tail.deferred),
            all: addTotals(window.all, tail.deferred),
          },
        };
      }
      ops.push({ op, short: cells.short, long: cells.long });
    }

    // --- bulk: mark all as read ----------------------------------------------
    const bulk: BulkRow[] = [];
    const unreadLeft = (userId: number) => countUnreadRows(deps, userId);
    const timedBulk = async (name: string, items: number, call: () => Promise<ApiResult>, check: () => Promise<number>): Promise<BulkRow> => {
      await drainDeferred(stack, sizes.drainTimeoutMs);
      log(`${name}`);
      const before = meter.snapshot();
      const r = await call();
      checkOk(r, name);
      const drainedIn = await drainDeferred(stack, sizes.drainTimeoutMs);
      const after = meter.snapshot();
      return {
        name,
        items,
        requestMs: r.ms,
        totalMs: drainedIn === undefined ? undefined : after.at - before.at,
        answer: `HTTP ${r.status}${r.body.complete === undefined ? "" : ` complete=${String(r.body.complete)}`}`,
        meter: diff(after, before),
        leftOver: await check(),
      };
    };
    bulk.push(
      await timedBulk(
        `POST /mark_all_as_read (${fmt(sizes.lifeUnread)} unread)`,
        sizes.lifeUnread,
        () => api.call(benchUser(reader!), "POST", "/mark_all_as_read"),
        () => unreadLeft(reader!.user_id),
      ),
    );

    // --- bulk: topic move change_all -------------------------------------------
    // The request's target is a message sent over HTTP (it has its recipients
    // item, as every real message does); it moves along with the history.
    const owner = benchUser(bench.owner);
    const sent = await api.call(owner, "POST", "/messages", { type: "stream", to: streams.move.name, topic: "topic 0", content: "move target" });
    checkOk(sent, "POST /messages (move target)");
    const moved = sizes.lifeMove + 1;
    bulk.push(
      await timedBulk(
        `PATCH /messages/{id} topic, change_all (${fmt(moved)} messages)`,
        moved,
        () => api.call(owner, "PATCH", `/messages/${sent.body.id as number}`, { topic: "moved topic", propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: false }),
        async () => moved - (await topicCount(stack.deps, streams.move, "moved topic")),
      ),
    );

    // --- bulk: stream move change_all (a whole topic, every subscriber holding a row) ---
    const smove = { from: bench.streams.get(LIFE_STREAMS.streamMoveFrom)!, to: bench.streams.get(LIFE_STREAMS.streamMoveTo)! };
    const prepared = await prepareStreamMove(deps, realm, api, bench.owner, smove, { messages: sizes.lifeStreamMove, subscribers: sizes.lifeStreamMoveSubscribers });
    bulk.push(
      await timedBulk(
        `PATCH /messages/{id} stream_id, change_all (${fmt(prepared.messages)} messages x ${prepared.subscribers} subscribers)`,
        prepared.messages,
        prepared.move,
        async () => prepared.messages - (await topicCount(stack.deps, smove.to, STREAM_MOVE_TOPIC)),
      ),
    );
    return { ops, bulk, history: { short: SHORT_HISTORY, long: sizes.lifeHistory, unread: sizes.lifeUnread, move: sizes.lifeMove, loadMs } };
  } finally {
    api.close();
  }
}

/**
 * Waits until the meter sees no request-path DynamoDB call for `quietMs`
 * (milliseconds), or `maxMs` passes.
 * @returns milliseconds waited
 */
async function waitForQuiet(bench: BenchStack, quietMs: number, maxMs: number): Promise<number> {
  const start = performance.now();
  let calls = bench.meter.snapshot().request.calls;
  let since = performance.now();
  while (performance.now() - since < quietMs && performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = bench.meter.snapshot().request.calls;
    if (now !== calls) {
      calls = now;
      since = performance.now();
    }
  }
  return performance.now() - start;
}

/** Messages of a topic, counted after the run (not metered into any phase). */
function topicCount(deps: BenchStack["stack"]["deps"], stream: StreamRecord, topic: string): Promise<number> {
  return countTopicMessages(deps, stream.stream_id, topic);
}

/** Renders part 3's tables. */
export function renderLife(r: LifeResult, sizes: Sizes): string {
  const out: string[] = [];
  const per = (c: LifeOpCell, v: number, digits = 1) => fmt(v / Math.max(1, c.ops), digits);
  const short = fmt(r.history.short);
  const long = fmt(r.history.long);
  const rows: Cell[][] = r.ops.map(({ op, short: s, long: l }) => [
    op,
    s.ops,
    fmtMs(s.latency.p50),
    fmtMs(s.latency.p99),
    fmtMs(l.latency.p50),
    fmtMs(l.latency.p99),
    per(s, s.meter.request.calls),
    per(l, l.meter.request.calls),
    per(s, s.meter.request.rcu),
    per(l, l.meter.request.rcu),
    per(s, s.meter.request.wcu),
    per(l, l.meter.request.wcu),
    per(l, l.meter.deferred.calls),
    per(l, l.meter.deferred.wcu),
  ]);
  out.push(
    renderTable(
      `Single-message operations (one at a time, ${SUBSCRIBERS}-subscriber streams with ${short} and ${long} messages of history)`,
      ["operation", "ops", `p50 @${short}`, `p99 @${short}`, `p50 @${long}`, `p99 @${long}`, `RT @${short}`, `RT @${long}`, `RCU @${short}`, `RCU @${long}`, `WCU @${short}`, `WCU @${long}`, "job RT", "job WCU"],
      rows,
      [
        `p50/p99 in ms; RT/RCU/WCU: DynamoDB round trips and capacity units per operation inside the request (auth included),`,
        `  @N = in the stream with N messages of history (the acting user's partition holds a row for each).`,
        `job RT/WCU: per operation in SQS jobs (the search re-index of an edit), ${long}-message stream, counted until drained.`,
        ...r.ops.map((o) => `  ${o.op}: ${perOpCommands(o.long.meter.request.byCommand, Math.max(1, o.long.ops))}`),
        ...r.ops.flatMap((o) =>
          (["short", "long"] as const)
            .filter((c) => o[c].errors > 0)
            .map((c) => `  ${o.op} @${c === "short" ? short : long}: ${o[c].errors} errors, e.g. ${o[c].errorSamples[0]}`),
        ),
      ],
    ),
  );
  const bulkRows: Cell[][] = r.bulk.map((b) => [
    b.name,
    b.items,
    fmtMs(b.requestMs),
    b.totalMs === undefined ? "timeout" : fmt(b.totalMs / 1000, 2),
    b.totalMs === undefined ? "-" : fmt((b.items * 1000) / b.totalMs, 0),
    b.meter.request.calls,
    fmt(b.meter.request.wcu, 0),
    b.meter.deferred.calls,
    fmt(b.meter.deferred.wcu, 0),
    fmt(b.meter.all.wcu / Math.max(1, b.items), 2),
    b.leftOver,
  ]);
  out.push(
    renderTable(
      "Bulk operations (timed from the request until the SQS jobs continuing it have drained)",
      ["operation", "items", "request ms", "total s", "items/s", "req RT", "req WCU", "job RT", "job WCU", "WCU/item", "left"],
      bulkRows,
      [
        "request ms: the HTTP request alone (it does the first share inline, then enqueues the rest).",
        "total s / items/s: from the request until the deferred-work queue is empty.",
        "left: items not in the end state afterwards (unread rows left / messages not in the new topic); 0 expected.",
        ...(r.bulk.some((b) => (b.meter.all.byCommand.TransactWriteItemsCommand ?? 0) > 0)
          ? [
              "WCU of TransactWriteItems: DynamoDB Local reports one item's units per transaction (a 100-row transaction reports what a",
              "  1-row one does); DynamoDB charges every item, twice a standard write. Count those rows at the single-row figure above.",
            ]
          : []),
        ...r.bulk.map((b) => `  ${b.name}: ${b.answer}; request calls: ${perOpCommands(b.meter.request.byCommand, 1)}; job calls: ${perOpCommands(b.meter.deferred.byCommand, 1) || "none"}`),
        "In all (request and jobs): DynamoDB calls, capacity units (read + write) and bytes of the write requests:",
        ...r.bulk.map((b) => `  ${b.name}: ${fmt(b.meter.all.calls)} calls, ${fmt(b.meter.all.rcu, 0)} RCU + ${fmt(b.meter.all.wcu, 0)} WCU, ${fmt(b.meter.all.writeBytes / 1e6, 2)} MB written`),
        `History loaded through the data layer in ${fmt(r.history.loadMs / 1000, 1)} s (${sizes.lifeOps} measured operations per cell).`,
      ],
    ),
  );
  return out.join("\n\n");
}
