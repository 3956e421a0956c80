import { randomBytes } from "node:crypto";
import type { Deps } from "../deps.js";
import { batchWrite } from "../data/batch-write.js";
import { keys } from "../data/keys.js";

import type { ZulipEvent } from "./types.js";

export type { ZulipEvent };

/** An event as stored in a user's log: the event, marked when a public-stream log copy exists. */
export type StoredEvent = ZulipEvent & { [PUBLIC_STREAM_MARKER]?: true };

/**
 * Who receives an event: user IDs, or (for `message` events) user IDs each
 * with that user's message flags, as in Zulip's `send_event`.
 */
export type EventAudience = number[] | { id: number; flags: string[] }[];

/** How long an event stays in a user's log: longer than any queue can go unpolled (10 minutes). */
export const EVENT_RETENTION_SECONDS = 3600;

/** Audiences above this size are written by the deferred-work consumer instead of the request. */
export const INLINE_FANOUT_LIMIT = 200;

/** Users per deferred fan-out job. */
export const FANOUT_JOB_SIZE = 500;

/**
 * Internal marker on the user-log copies of an event that also went to the
 * realm's public-stream log: queues that read that log take the event from
 * there and skip this copy, so they see it once. Removed before delivery.
 */
export const PUBLIC_STREAM_MARKER = "_public_stream";

/**
 * Most recipients whose flags the realm public-log copy of a message event
 * carries (`flags_by_user`); beyond it (a wildcard mention in a huge
 * stream) `all_public_streams` queues see `flags: []` — their owners'
 * own queues still get the exact flags from their user logs.
 */
export const PUBLIC_LOG_FLAGS_LIMIT = 1000;

/** Keys made in the current millisecond by this process, to order them (see {@link newEventKey}). */
let keyClock = { ms: -1, seq: 0 };

/**
 * A key that sorts by writing time: 13-digit milliseconds, then a sequence
 * number that orders the keys one process makes within a millisecond (one
 * action's events reach a user in the order it sent them), then random bits
 * that make it unique across processes. Readers use the time prefix for
 * their look-back window (see docs/events.md).
 */
export function newEventKey(nowMs: number): string {
  keyClock = nowMs === keyClock.ms ? { ms: nowMs, seq: keyClock.seq + 1 } : { ms: nowMs, seq: 0 };
  const seq = keyClock.seq.toString(36).padStart(4, "0");
  return `${String(nowMs).padStart(13, "0")}#${seq}${randomBytes(4).toString("hex")}`;
}

/** The milliseconds prefix of an event key. */
export function eventKeyTime(key: string): number {
  return Number.parseInt(key.slice(0, 13), 10);
}

/**
 * The waker channel of a realm's public-stream log. `Deps.eventsWritten`
 * and `waitForEvents` take user IDs; a realm's public log uses the
 * negated realm ID, which no user has.
 */
export function publicLogWakeId(realmId: number): number {
  return -realmId;
}

function normalize(users: EventAudience): { id: number; flags?: string[] }[] {
  return (users as (number | { id: number; flags: string[] })[]).map((u) => (typeof u === "number" ? { id: u } : u));
}

/**
 * Writes one event into each recipient's event log, the storage every
 * event queue of that user reads with its own cursor (docs/events.md).
 * Call only after the change the event describes is stored.
 *
 * Audiences up to {@link INLINE_FANOUT_LIMIT} users are written now with
 * batched writes (one BatchWriteItem per 25 users); larger ones are handed
 * to deferred work in jobs of {@link FANOUT_JOB_SIZE} users so the request
 * returns as fast as for a small audience.
 *
 * @param options.publicStreamRealmId for events about a public stream's
 *   messages: also write one copy to the realm's public-stream log, which
 *   queues registered with `all_public_streams` (or a `narrow`) read (one
 *   extra write, whatever the audience). The user-log copies are then
 *   marked so those queues do not deliver the message twice.
 */
export async function sendEvent(
  deps: Deps,
  event: ZulipEvent,
  users: EventAudience,
  options: { publicStreamRealmId?: number } = {},
): Promise<void> {
  const audience = normalize(users);
  let userLogEvent: StoredEvent = event;
  if (options.publicStreamRealmId !== undefined) {
    await writePublicStreamEvent(deps, options.publicStreamRealmId, event, audience);
    userLogEvent = { ...event, [PUBLIC_STREAM_MARKER]: true };
  }
  if (audience.length === 0) return;
  if (audience.length > INLINE_FANOUT_LIMIT) {
    const jobs = [];
    for (let i = 0; i < audience.length; i += FANOUT_JOB_SIZE) {
      jobs.push({ kind: "fanout_event", payload: { event: userLogEvent, users: audience.slice(i, i + FANOUT_JOB_SIZE) } });
    }
    await deps.deferred.enqueue(jobs);
    return;
  }
  await writeEventToLogs(deps, userLogEvent, audience);
}

/**
 * Writes an event into the given users' logs now (used inline and by the
 * deferred fan-out job). Each user's copy carries its own `flags` when given.
 * Item: `{pk: UEVT#<user>, sk: <eventKey>, type: "event", event, flags?, expires_at}`.
 */
export async function writeEventToLogs(
  deps: Deps,
  event: StoredEvent,
  audience: { id: number; flags?: string[] }[],
): Promise<void> {
  const now = deps.clock.now();
  const expiresAt = Math.floor(now / 1000) + EVENT_RETENTION_SECONDS;
  const items = audience.map((u) => ({
    ...keys.userEvent(u.id, newEventKey(now)),
    type: "event",
    event,
    ...(u.flags ? { flags: u.flags } : {}),
    expires_at: expiresAt,
  }));
  await batchWrite(deps, items);
  deps.eventsWritten(audience.map((u) => u.id));
}

/**
 * Writes one copy of an event to a realm's public-stream log (read by
 * `all_public_streams` and narrowed queues), with the recipients' non-empty
 * flags (up to {@link PUBLIC_LOG_FLAGS_LIMIT}) so such a queue of a
 * recipient still sees its owner's flags, as in Zulip.
 */
export async function writePublicStreamEvent(
  deps: Deps,
  realmId: number,
  event: ZulipEvent,
  audience: { id: number; flags?: string[] }[] = [],
): Promise<void> {
  const now = deps.clock.now();
  const withFlags = audience.filter((u) => u.flags && u.flags.length > 0);
  const flagsByUser =
    withFlags.length > 0 && withFlags.length <= PUBLIC_LOG_FLAGS_LIMIT
      ? Object.fromEntries(withFlags.map((u) => [String(u.id), u.flags!]))
      : undefined;
  await batchWrite(deps, [
    {
      ...keys.realmPublicEvent(realmId, newEventKey(now)),
      type: "event",
      event,
      ...(flagsByUser ? { flags_by_user: flagsByUser } : {}),
      expires_at: Math.floor(now / 1000) + EVENT_RETENTION_SECONDS,
    },
  ]);
  deps.eventsWritten([publicLogWakeId(realmId)]);
}
