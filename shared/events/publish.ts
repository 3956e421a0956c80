import type { Deps } from "../deps.js";
import { putRealmPublicEventItem, putRealmTypingEventItem, putUserEventItems, type EventCopy } from "../data/event-logs.js";
import type { DeferredJob, JobPayload } from "../deferred/jobs.js";

import type { EventOf, ZulipEvent } from "./types.js";

export type { ZulipEvent };

/**
 * Internal marker on the user-log copies of an event that also went to the
 * realm's public-stream log: queues that read that log take the event from
 * there and skip this copy, so they see it once. Removed before delivery.
 */
export const PUBLIC_STREAM_MARKER = "_public_stream";

/**
 * A `message` event as an action builds and the logs store it: the
 * schema's event without the per-user `flags` (each log copy carries its
 * reader's, see {@link sendEvent}) and without `local_message_id`, plus the
 * fields only the server reads, which delivery removes
 * (`shared/events/delivery.ts`): `raw_content` (the Markdown source, sent to
 * queues without `apply_markdown`), and `local_id` / `sender_queue_id`
 * (only the sending queue's copy reports `local_message_id`).
 */
export type MessageEventInternal = Omit<EventOf<"message">, "flags" | "local_message_id"> & {
  raw_content: string;
  sender_queue_id?: string;
};

/** Every event an action sends: the schemas' events; a `message` event in its stored form. */
export type PublishedEvent = ZulipEvent | MessageEventInternal;

/** An event as stored in a user's log: marked when a public-stream log copy exists. */
export type StoredEvent = PublishedEvent & { [PUBLIC_STREAM_MARKER]?: true };

/**
 * Who receives an event: user IDs, or (for `message` events) user IDs each
 * with that user's message flags, as in Zulip's `send_event`.
 */
export type EventAudience = number[] | { id: number; flags: string[] }[];

/** Audiences above this size are written by the deferred-work consumer instead of the request. */
export const INLINE_FANOUT_LIMIT = 200;

/** Users per deferred fan-out job. */
export const FANOUT_JOB_SIZE = 500;

/**
 * Most recipients whose flags the realm public-log copy of a message event
 * carries (`flags_by_user`); beyond it (a wildcard mention in a huge
 * stream) `all_public_streams` queues see `flags: []` — their owners'
 * own queues still get the exact flags from their user logs.
 */
export const PUBLIC_LOG_FLAGS_LIMIT = 1000;

/**
 * The waker channel of a realm's public-stream log. `Deps.eventsWritten`
 * and `waitForEvents` take user IDs; a realm's public log uses the
 * negated realm ID, which no user has.
 */
export function publicLogWakeId(realmId: number): number {
  return -realmId;
}

/** Options of {@link sendEvent}. */
export interface SendEventOptions {
  /**
   * For `message` events to a public stream: one copy also goes to the
   * realm's public-stream log, which queues registered with
   * `all_public_streams` (or a `narrow`) read, and the user-log copies are
   * marked ({@link PUBLIC_STREAM_MARKER}) so those queues see the message
   * once. `{realmId}` writes that copy first (one extra write, whatever the
   * audience), with the non-empty flags of the audience (up to
   * {@link PUBLIC_LOG_FLAGS_LIMIT}); `{written: true}` only marks the
   * copies: the request that a deferred job continues wrote the realm copy.
   */
  publicStream?: { realmId: number } | { written: true };
  /**
   * Write every user copy now, whatever the audience's size: for callers
   * that are themselves one slice of a fan-out in deferred work (the
   * `write_user_messages` job).
   */
  inline?: boolean;
}

/** Payload of a `fanout_event` job: an event and the users whose logs get it. */
export type FanoutEventPayload = JobPayload<"fanout_event">;

function normalize(users: EventAudience): EventCopy[] {
  return (users as (number | EventCopy)[]).map((u) => (typeof u === "number" ? { id: u } : u));
}

/**
 * Zulip's `send_event`: writes one event into each recipient's event log,
 * the storage every event queue of that user reads with its own cursor
 * (docs/events.md). The one place that decides how an event is written.
 * Call only after the change the event describes is stored.
 *
 * Audiences up to {@link INLINE_FANOUT_LIMIT} users are written now with
 * batched writes (one BatchWriteItem per 25 users); larger ones are handed
 * to deferred work in `fanout_event` jobs of {@link FANOUT_JOB_SIZE} users
 * so the request returns as fast as for a small audience (unless
 * `options.inline`). Public-stream messages: see
 * {@link SendEventOptions.publicStream}.
 */
export async function sendEvent(
  deps: Deps,
  event: PublishedEvent,
  users: EventAudience,
  options: SendEventOptions = {},
): Promise<void> {
  const audience = normalize(users);
  let userLogEvent: StoredEvent = event;
  if (options.publicStream !== undefined) {
    if ("realmId" in options.publicStream) await writePublicStreamEvent(deps, options.publicStream.realmId, event, audience);
    userLogEvent = { ...event, [PUBLIC_STREAM_MARKER]: true };
  }
  if (audience.length === 0) return;
  if (audience.length > INLINE_FANOUT_LIMIT && !options.inline) {
    const jobs: DeferredJob[] = [];
    for (let i = 0; i < audience.length; i += FANOUT_JOB_SIZE) {
      const payload: FanoutEventPayload = { event: userLogEvent, users: audience.slice(i, i + FANOUT_JOB_SIZE) };
      jobs.push({ kind: "fanout_event", payload });
    }
    await deps.deferred.enqueue(jobs);
    return;
  }
  await writeEventToLogs(deps, userLogEvent, audience);
}

/**
 * Runs a `fanout_event` job: writes the event into its users' logs (a
 * slice of an audience above {@link INLINE_FANOUT_LIMIT}).
 */
export async function runFanoutEvent(deps: Deps, payload: FanoutEventPayload): Promise<void> {
  await writeEventToLogs(deps, payload.event, payload.users);
}

/**
 * Writes an event into the given users' logs now, each copy with its user's
 * `flags` when given, and wakes their waiting polls. The event is a
 * {@link StoredEvent}, or one a `fanout_event` job carried (typed by the job
 * schema as an object with a `type`: it was a `StoredEvent` when enqueued).
 */
async function writeEventToLogs(deps: Deps, event: FanoutEventPayload["event"], audience: EventCopy[]): Promise<void> {
  await putUserEventItems(deps, event, audience, deps.clock.now());
  deps.eventsWritten(audience.map((u) => u.id));
}

/**
 * Writes one copy of an event to a realm's public-stream log (read by
 * `all_public_streams` and narrowed queues), with the recipients' non-empty
 * flags (up to {@link PUBLIC_LOG_FLAGS_LIMIT}) so such a queue of a
 * recipient still sees its owner's flags, as in Zulip.
 */
async function writePublicStreamEvent(deps: Deps, realmId: number, event: PublishedEvent, audience: EventCopy[]): Promise<void> {
  const withFlags = audience.filter((u) => u.flags && u.flags.length > 0);
  const flagsByUser =
    withFlags.length > 0 && withFlags.length <= PUBLIC_LOG_FLAGS_LIMIT
      ? Object.fromEntries(withFlags.map((u) => [String(u.id), u.flags!]))
      : undefined;
  await putRealmPublicEventItem(deps, realmId, event, flagsByUser, deps.clock.now());
  deps.eventsWritten([publicLogWakeId(realmId)]);
}

/**
 * Zulip's `send_event` for a stream `typing` event: instead of a copy in
 * each recipient's log, one item in the realm's typing log names the
 * recipients, and every queue that takes stream typing events reads that
 * log and keeps the items addressed to its owner (docs/events.md, "Stream
 * typing"). One PutItem whatever the audience (at most 100 users: Zulip
 * sends no stream typing events to larger streams). Wakes the recipients'
 * waiting polls. Nothing is written for an empty audience.
 * @param event a `typing` event with `stream_id`
 * @param userIds the recipients
 */
export async function sendStreamTypingEvent(
  deps: Deps,
  realmId: number,
  event: EventOf<"typing/start"> | EventOf<"typing/stop">,
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await putRealmTypingEventItem(deps, realmId, event, userIds, deps.clock.now());
  deps.eventsWritten([...userIds]);
}
