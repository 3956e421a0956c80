/**
 * The scheduled part of the bench: what a scheduled message costs
 * (docs/performance.md, "Scheduled messages: what one costs").
 *
 * 1. create: {@link Sizes.scheduledCreates} `POST /scheduled_messages` of a
 *    stream message due in an hour, one at a time;
 * 2. re-check: the `send_scheduled_message` job of each of those, run
 *    through the worker's own dispatcher (`runJob`) while the message is
 *    not yet due: it reads the item and enqueues itself again;
 * 3. delivery: {@link Sizes.scheduledDeliveries} messages due a few seconds
 *    after they are created, delivered by the stack's own SQS consumer when
 *    their delayed jobs arrive; the DynamoDB work of the deferred side from
 *    then until every one is sent, per delivered message.
 *
 * The stream has {@link SCHEDULED_SUBSCRIBERS} subscribers, so a delivery's
 * send writes its rows inside the job (no fan-out job).
 */
import { runJob } from "../../functions/worker/jobs.js";
import { getScheduledMessage } from "../../shared/data/scheduled-messages.js";
import type { Sizes } from "./args.js";
import { ApiClient } from "./http.js";
import { diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { dollarsPerThousand, fmtDollars, perRequest, SqsSendCounter, type PerRequest } from "./per-request.js";
import { benchUser, createUsers, subscribeUsers } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable } from "./table.js";

/** The stream scheduled messages go to (created at setup). */
export const SCHEDULED_STREAM = "bench-scheduled";

/** Subscribers of {@link SCHEDULED_STREAM}. */
export const SCHEDULED_SUBSCRIBERS = 10;

/** Seconds between a delivery-phase message's creation and its delivery time. */
const DELIVERY_LEAD_SECONDS = 3;

/** One measured phase of the part. */
export interface ScheduledPhase {
  /** Operations measured (requests, job runs or deliveries). */
  ops: number;
  errors: number;
  /** Per-operation latency (requests and re-checks; the delivery phase has none). */
  latency?: LatencySummary;
  work: PerRequest;
  byCommand: Record<string, number>;
}

export interface ScheduledResult {
  subscribers: number;
  create: ScheduledPhase;
  recheck: ScheduledPhase;
  delivery: ScheduledPhase & {
    /** Seconds from the latest delivery time until the last message was sent (consumer batching included). */
    lateSeconds: number | undefined;
  };
}

function phase(delta: MeterDelta, ops: number, errors: number, sqsCalls: number, latencies?: number[]): ScheduledPhase {
  return {
    ops,
    errors,
    ...(latencies ? { latency: summarize(latencies) } : {}),
    work: perRequest(delta.all, ops, sqsCalls),
    byCommand: delta.all.byCommand,
  };
}

/** Runs the scheduled part. */
export async function runScheduledPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<ScheduledResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const stream = bench.streams.get(SCHEDULED_STREAM)!;
  const users = await createUsers(deps, realm, "scheduler", SCHEDULED_SUBSCRIBERS);
  await subscribeUsers(deps, stream, users);
  const sender = users[0]!;
  const sqs = new SqsSendCounter();
  sqs.install(stack.sqs.client);
  const api = new ApiClient(stack.url);
  const schedule = (topic: string, when: number) =>
    api.call(benchUser(sender), "POST", "/scheduled_messages", {
      type: "stream",
      to: stream.stream_id,
      topic,
      content: "A scheduled **bench** message",
      scheduled_delivery_timestamp: when,
    });
  try {
    log(`scheduled: ${sizes.scheduledCreates} POST /scheduled_messages, one at a time`);
    const ids: number[] = [];
    const latencies: number[] = [];
    let errors = 0;
    let sqsBefore = sqs.calls.request + sqs.calls.deferred;
    let before = meter.snapshot();
    for (let i = 0; i < sizes.scheduledCreates; i++) {
      const res = await schedule("later", Math.floor(deps.clock.now() / 1000) + 3600);
      latencies.push(res.ms);
      if (res.status === 200) ids.push(res.body.scheduled_message_id as number);
      else errors++;
    }
    const create = phase(diff(meter.snapshot(), before), sizes.scheduledCreates, errors, sqs.calls.request + sqs.calls.deferred - sqsBefore, latencies);
    await drainDeferred(stack, sizes.drainTimeoutMs);

    log(`scheduled: ${ids.length} not-yet-due send_scheduled_message jobs`);
    const recheckMs: number[] = [];
    sqsBefore = sqs.calls.request + sqs.calls.deferred;
    before = meter.snapshot();
    for (const id of ids) {
      const t = performance.now();
      await runJob(deps, { kind: "send_scheduled_message", payload: { realm_id: realm.id, user_id: sender.user_id, scheduled_message_id: id, version: 1 } });
      recheckMs.push(performance.now() - t);
    }
    const recheck = phase(diff(meter.snapshot(), before), ids.length, 0, sqs.calls.request + sqs.calls.deferred - sqsBefore, recheckMs);

    log(`scheduled: ${sizes.scheduledDeliveries} messages due in ${DELIVERY_LEAD_SECONDS} s, delivered by the SQS consumer`);
    // From here the deferred side does nothing but deliver these messages (the other jobs are an hour or 15 minutes away).
    sqsBefore = sqs.calls.deferred;
    before = meter.snapshot();
    const due: number[] = [];
    let dueAt = 0;
    let createErrors = 0;
    for (let i = 0; i < sizes.scheduledDeliveries; i++) {
      const when = Math.ceil(deps.clock.now() / 1000) + DELIVERY_LEAD_SECONDS;
      const res = await schedule("now", when);
      if (res.status === 200) {
        due.push(res.body.scheduled_message_id as number);
        dueAt = Math.max(dueAt, when * 1000);
      } else createErrors++;
    }
    // Polling the items is request-side work; the delivery is counted from the deferred side only.
    const bound = dueAt + sizes.drainTimeoutMs;
    let pending = due;
    while (pending.length > 0 && deps.clock.now() < bound) {
      await new Promise((r) => setTimeout(r, 200));
      const left = await Promise.all(pending.map(async (id) => ((await getScheduledMessage(deps, sender.user_id, id)) ? id : undefined)));
      pending = left.filter((id): id is number => id !== undefined);
    }
    const lateSeconds = pending.length === 0 ? Math.max(0, deps.clock.now() - dueAt) / 1000 : undefined;
    await drainDeferred(stack, sizes.drainTimeoutMs);
    const d = diff(meter.snapshot(), before);
    const delivered = due.length - pending.length;
    const delivery = {
      ops: delivered,
      errors: createErrors + pending.length,
      work: perRequest(d.deferred, delivered, sqs.calls.deferred - sqsBefore),
      byCommand: d.deferred.byCommand,
      lateSeconds,
    };
    return { subscribers: users.length, create, recheck, delivery };
  } finally {
    api.close();
  }
}

/** Renders the scheduled part's table. */
export function renderScheduled(r: ScheduledResult): string {
  const row = (name: string, p: ScheduledPhase): (string | number)[] => [
    name,
    p.ops,
    p.latency ? fmtMs(p.latency.p50) : "-",
    fmt(p.work.calls, 1),
    fmt(p.work.rcu, 1),
    fmt(p.work.wcu, 1),
    fmt(p.work.sqs, 1),
    fmtDollars(dollarsPerThousand(p.work)),
    p.errors,
  ];
  return renderTable(
    `Scheduled messages: a stream message to ${r.subscribers} subscribers`,
    ["operation", "count", "p50 ms", "RT/op", "RCU/op", "WCU/op", "SQS sends/op", "$ per 1,000", "errors"],
    [row("POST /scheduled_messages", r.create), row("job, not yet due", r.recheck), row("job, delivery", r.delivery)],
    [
      "RT: DynamoDB calls (authentication included for the POST). $: DynamoDB units and SQS sends at on-demand prices (no Lambda, API Gateway or SQS receive/delete).",
      `calls/op: create ${perOpCommands(r.create.byCommand, Math.max(1, r.create.ops))}; not yet due ${perOpCommands(r.recheck.byCommand, Math.max(1, r.recheck.ops))}; delivery ${perOpCommands(r.delivery.byCommand, Math.max(1, r.delivery.ops))}`,
      r.delivery.lateSeconds === undefined
        ? "Some deliveries did not happen within the bound (counted as errors)."
        : `The last delivery ended ${fmt(r.delivery.lateSeconds, 1)} s after the latest delivery time (the consumer's batching and this machine's load).`,
    ],
  );
}
