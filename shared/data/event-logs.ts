import { randomBytes } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Store } from "./client.js";
import { batchWrite } from "./batch-write.js";
import { encodeStoredEvent, storedEventEncoder } from "./event-codec.js";
import { keys } from "./keys.js";

/**
 * The event logs' items, as written (docs/events.md): one log per user
 * (`UEVT#<user>`), which every event queue of that user reads with its own
 * cursor, one per realm (`REVT#<realm>`) holding one copy of each
 * public-stream `message` event for `all_public_streams` and narrowed
 * queues, and one per realm (`RTYP#<realm>`) holding each stream `typing`
 * event once, with the users it is addressed to. Sort keys are event keys ({@link newEventKey}); items expire
 * after {@link EVENT_RETENTION_SECONDS}.
 */

/** How long an event stays in a log (seconds): longer than any queue can go unpolled (10 minutes). */
export const EVENT_RETENTION_SECONDS = 3600;

/** Keys made in the current millisecond by this process, to order them (see {@link newEventKey}). */
let keyClock = { ms: -1, seq: 0 };

/**
 * A key that sorts by writing time: 13-digit milliseconds, then a sequence
 * number that orders the keys one process makes within a millisecond (one
 * action's events reach a user in the order it sent them), then random bits
 * that make it unique across processes. Readers use the time prefix for
 * their look-back window (see docs/events.md).
 * @param nowMs milliseconds since the UNIX epoch
 */
export function newEventKey(nowMs: number): string {
  keyClock = nowMs === keyClock.ms ? { ms: nowMs, seq: keyClock.seq + 1 } : { ms: nowMs, seq: 0 };
  const seq = keyClock.seq.toString(36).padStart(4, "0");
  return `${String(nowMs).padStart(13, "0")}#${seq}${randomBytes(4).toString("hex")}`;
}

/** The milliseconds prefix of an event key (see {@link newEventKey}). */
export function eventKeyTime(key: string): number {
  return Number.parseInt(key.slice(0, 13), 10);
}

/** One user's copy of an event: the user, and for `message` events that user's flags. */
export interface EventCopy {
  id: number;
  flags?: string[];
}

/**
 * Writes one copy of `event` into each user's log, with that user's
 * `flags` when given: `{pk: UEVT#<user>, sk: <eventKey>, type: "event",
 * event, flags?, expires_at}`, `event` in its stored form
 * (`event-codec.ts`: a compact `message` event, so that a typical message
 * copy stays within one write unit). One BatchWriteItem per 25 users, 4 in
 * flight.
 * @param event the event as stored (JSON-serialisable)
 * @param nowMs milliseconds since the UNIX epoch: the keys' time and the expiry's start
 * @throws Error when items stay unprocessed after 9 tries
 */
export async function putUserEventItems(store: Store, event: object, copies: readonly EventCopy[], nowMs: number): Promise<void> {
  const expiresAt = Math.floor(nowMs / 1000) + EVENT_RETENTION_SECONDS;
  const stored = storedEventEncoder(event);
  const items = copies.map((u) => ({
    ...keys.userEvent(u.id, newEventKey(nowMs)),
    type: "event",
    event: stored(u.id),
    ...(u.flags ? { flags: u.flags } : {}),
    expires_at: expiresAt,
  }));
  await batchWrite(store, items);
}

/**
 * Writes one copy of `event` into a realm's public-stream log:
 * `{pk: REVT#<realm>, sk: <eventKey>, type: "event", event, flags_by_user?,
 * expires_at}`, `event` in its stored form (`event-codec.ts`). One
 * BatchWriteItem.
 * @param flagsByUser user ID (as a string) → that user's flags, for the queues of recipients that read this log
 * @param nowMs milliseconds since the UNIX epoch
 */
export async function putRealmPublicEventItem(
  store: Store,
  realmId: number,
  event: object,
  flagsByUser: Record<string, string[]> | undefined,
  nowMs: number,
): Promise<void> {
  await batchWrite(store, [
    {
      ...keys.realmPublicEvent(realmId, newEventKey(nowMs)),
      type: "event",
      event: encodeStoredEvent(event),
      ...(flagsByUser ? { flags_by_user: flagsByUser } : {}),
      expires_at: Math.floor(nowMs / 1000) + EVENT_RETENTION_SECONDS,
    },
  ]);
}

/**
 * How long a stream typing item stays readable (seconds): as long as a
 * queue that has not polled since it was written can still poll (10
 * minutes of inactivity) plus slack. Typing events matter for seconds; no
 * queue reads further back than its cursor.
 */
export const TYPING_RETENTION_SECONDS = 900;

/** Most recipients one typing item may name (Zulip sends stream typing events to streams of at most 100 subscribers). */
export const MAX_TYPING_AUDIENCE = 1000;

/**
 * Writes one stream `typing` event into a realm's typing log, addressed to
 * `userIds`: `{pk: RTYP#<realm>, sk: <eventKey>, type: "event", event,
 * user_ids, expires_at}`. One PutItem of ≈ 150 bytes + 4 per recipient:
 * one write unit for the ≤ 100 recipients Zulip notifies, where a copy per
 * recipient would cost one unit each.
 * @param nowMs milliseconds since the UNIX epoch: the key's time and the expiry's start
 * @throws Error when `userIds` is empty or longer than {@link MAX_TYPING_AUDIENCE}
 */
export async function putRealmTypingEventItem(
  store: Store,
  realmId: number,
  event: object,
  userIds: readonly number[],
  nowMs: number,
): Promise<void> {
  if (userIds.length === 0 || userIds.length > MAX_TYPING_AUDIENCE) {
    throw new Error(`putRealmTypingEventItem: ${userIds.length} recipients (1 to ${MAX_TYPING_AUDIENCE})`);
  }
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: {
        ...keys.realmTypingEvent(realmId, newEventKey(nowMs)),
        type: "event",
        event,
        user_ids: [...userIds],
        expires_at: Math.floor(nowMs / 1000) + TYPING_RETENTION_SECONDS,
      },
    }),
  );
}
