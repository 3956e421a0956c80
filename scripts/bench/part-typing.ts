/**
 * Part 4 of the bench (issue "Operations and cost", typing): what one
 * stream typing notification costs, from `POST /typing` until every
 * recipient's queue has it, and what reading for typing adds to a poll
 * that finds nothing.
 *
 * For each stream size in {@link Sizes.typingSubscribers}: every
 * subscriber but the typist registers a queue that takes stream typing
 * events (`event_types: ["typing"]`, the `stream_typing_notifications`
 * capability). The typist sends {@link Sizes.typingNotifications}
 * notifications one at a time (start, stop, start, …); after each, every
 * queue polls once with `dont_block`, as each woken long poll would. Then
 * every queue polls once more with nothing new (the cost of one re-read).
 * Zulip sends no stream typing events to streams of more than 100
 * subscribers, so larger sizes measure the request and the empty polls
 * alone.
 */
import pMap from "p-map";
import { MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS } from "../../shared/actions/typing/send-typing-notification.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import type { Sizes } from "./args.js";
import { ApiClient, type ApiResult } from "./http.js";
import { addTotals, diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { benchUser, createUsers, subscribeUsers, type BenchUser } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable } from "./table.js";

/** The stream this part types in for a given subscriber count (created at setup). */
export function typingStreamName(subscribers: number): string {
  return `bench-typing-${subscribers}`;
}

/** One stream size's figures. */
export interface TypingRow {
  subscribers: number;
  notifications: number;
  errors: number;
  errorSamples: string[];
  latency: LatencySummary;
  /** The `POST /typing` requests alone. */
  request: MeterDelta;
  /** The polls that delivered them (one per queue per notification). */
  polls: MeterDelta;
  pollCount: number;
  expected: number;
  delivered: number;
  /** One more poll per queue, with nothing new. */
  emptyPolls: MeterDelta;
  emptyPollCount: number;
}

export interface TypingResult {
  rows: TypingRow[];
}

/** A bench user's queue: its ID and the last event ID it has seen. */
interface Queue {
  user: BenchUser;
  id: string;
  last: number;
}

async function pollAll(api: ApiClient, queues: Queue[], inFlight: number): Promise<number> {
  const counts = await pMap(queues, async (q) => {
    const res = await api.call(q.user, "GET", "/events", { queue_id: q.id, last_event_id: q.last, dont_block: true });
    if (res.status !== 200) throw new Error(`GET /events: ${res.status} ${JSON.stringify(res.body)}`);
    const events = res.body.events as { id: number; type: string }[];
    for (const e of events) q.last = Math.max(q.last, e.id);
    return events.filter((e) => e.type === "typing").length;
  }, { concurrency: inFlight });
  return counts.reduce((a, b) => a + b, 0);
}

/** Runs part 4 for each stream size. */
export async function runTypingPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<TypingResult> {
  const { stack, meter, realm } = bench;
  const api = new ApiClient(stack.url);
  const rows: TypingRow[] = [];
  try {
    for (const subscribers of sizes.typingSubscribers) {
      const stream = bench.streams.get(typingStreamName(subscribers))!;
      const users: UserRecord[] = await createUsers(stack.deps, realm, `typist${subscribers}`, subscribers);
      await subscribeUsers(stack.deps, stream, users);
      await drainDeferred(stack, 60_000);
      const [typist, ...others] = users.map(benchUser);
      log(`typing: ${others.length} queues registering (stream of ${subscribers} subscribers)`);
      const queues = await pMap(others, async (user): Promise<Queue> => {
        const res = await api.call(user, "POST", "/register", {
          event_types: ["typing"],
          client_capabilities: { stream_typing_notifications: true },
        });
        if (res.status !== 200) throw new Error(`POST /register: ${res.status} ${JSON.stringify(res.body)}`);
        return { user, id: res.body.queue_id as string, last: res.body.last_event_id as number };
      }, { concurrency: sizes.senders });

      log(`typing: ${sizes.typingNotifications} notifications to a stream of ${subscribers}, every queue polling after each`);
      const notifies = subscribers <= MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS;
      const latencies: number[] = [];
      let errors = 0;
      const errorSamples: string[] = [];
      let delivered = 0;
      let request = diff(meter.snapshot(), meter.snapshot());
      let polls = request;
      for (let i = 0; i < sizes.typingNotifications; i++) {
        const before = meter.snapshot();
        const res: ApiResult = await api.call(typist!, "POST", "/typing", {
          op: i % 2 === 0 ? "start" : "stop",
          type: "stream",
          stream_id: stream.stream_id,
          topic: "bench typing",
        });
        latencies.push(res.ms);
        if (res.status !== 200) {
          errors++;
          if (errorSamples.length < 3) errorSamples.push(`${res.status} ${JSON.stringify(res.body)}`);
        }
        const afterRequest = meter.snapshot();
        // Above Zulip's limit nothing is sent, so no poll would wake: the empty-poll round below measures them.
        if (notifies) delivered += await pollAll(api, queues, sizes.senders);
        request = sumDelta(request, diff(afterRequest, before));
        polls = sumDelta(polls, diff(meter.snapshot(), afterRequest));
      }
      const beforeEmpty = meter.snapshot();
      await pollAll(api, queues, sizes.senders);
      const emptyPolls = diff(meter.snapshot(), beforeEmpty);
      const notified = notifies ? others.length : 0;
      rows.push({
        subscribers,
        notifications: sizes.typingNotifications,
        errors,
        errorSamples,
        latency: summarize(latencies),
        request,
        polls,
        pollCount: notifies ? queues.length * sizes.typingNotifications : 0,
        expected: notified * sizes.typingNotifications,
        delivered,
        emptyPolls,
        emptyPollCount: queues.length,
      });
      await pMap(queues, (q) => api.call(q.user, "DELETE", "/events", { queue_id: q.id }), { concurrency: sizes.senders });
    }
  } finally {
    api.close();
  }
  return { rows };
}

function sumDelta(a: MeterDelta, b: MeterDelta): MeterDelta {
  return {
    elapsedMs: a.elapsedMs + b.elapsedMs,
    request: addTotals(a.request, b.request),
    deferred: addTotals(a.deferred, b.deferred),
    all: addTotals(a.all, b.all),
  };
}

/** Renders part 4's table. */
export function renderTyping(r: TypingResult): string {
  const rows = r.rows.map((x) => {
    const n = x.notifications;
    return [
      x.subscribers,
      n,
      fmtMs(x.latency.p50),
      fmt(x.request.all.calls / n, 1),
      fmt(x.request.all.wcu / n, 1),
      `${x.delivered}/${x.expected}`,
      fmt(x.polls.all.calls / n, 0),
      fmt(x.polls.all.rcu / n, 1),
      fmt(x.polls.all.wcu / n, 1),
      fmt((x.request.all.wcu + x.polls.all.wcu) / n, 1),
      fmt(x.emptyPolls.all.calls / Math.max(1, x.emptyPollCount), 1),
      fmt(x.emptyPolls.all.rcu / Math.max(1, x.emptyPollCount), 2),
    ];
  });
  const notes = [
    "Per notification: POST /typing (req RT, req WCU), then one dont_block poll by every other subscriber's queue (polls RT/RCU/WCU,",
    "  authentication and queue saves included), as each woken long poll would; total WCU = request + polls.",
    `empty poll: one more poll per queue with nothing new (what each long-poll re-read costs). No events above ${MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS} subscribers (Zulip's limit).`,
    ...r.rows.map(
      (x) =>
        `  ${x.subscribers} subscribers: request calls/notification: ${perOpCommands(x.request.all.byCommand, x.notifications)}; empty poll calls/queue: ${perOpCommands(x.emptyPolls.all.byCommand, Math.max(1, x.emptyPollCount))}` +
        (x.errors > 0 ? `; ${x.errors} errors: ${x.errorSamples.join(" | ")}` : ""),
    ),
  ];
  return renderTable(
    "POST /typing to a stream topic (queues with stream_typing_notifications, event_types=[typing])",
    ["subscribers", "notifications", "req p50 ms", "req RT", "req WCU", "delivered", "polls RT", "polls RCU", "polls WCU", "total WCU", "empty poll RT", "empty poll RCU"],
    rows,
    notes,
  );
}
