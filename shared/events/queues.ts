import { randomBytes } from "node:crypto";
import type { Deps } from "../deps.js";
import { BadEventQueueIdError, JsonableError } from "../errors.js";
import type { EventQueueRecord, PendingEvent, QueueOptions } from "../data/records/event-queue.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";
import {
  deleteQueueItem,
  logItemsByRef,
  putNewQueue,
  realmPublicEventLog,
  realmTypingEventLog,
  saveQueue,
  userEventLog,
  type EventLog,
} from "../data/event-queues.js";
import { eventKeyTime } from "../data/event-logs.js";
import { apiEmail } from "../domain/email.js";
import { isGuest } from "../domain/roles.js";
import { eventsForQueue, readsPublicLog, readsTypingLog } from "./delivery.js";
import type { DeliveredEvent, ZulipEvent } from "./types.js";
import { publicLogWakeId } from "./publish.js";

/**
 * Inactivity after which a queue is gone, in milliseconds: 10 minutes
 * (Zulip's `DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`; https://zulip.com/api/register-queue).
 */
export const QUEUE_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * How far behind its cursor a poll re-reads a log, in milliseconds: an
 * event key carries the writer's clock at `sendEvent` time, and the write
 * may become visible a little later (batch retries, replication lag, clock
 * skew between Lambdas). Keys consumed within the window are remembered in
 * the queue, so a re-read never delivers twice.
 */
export const LOOKBACK_MS = 5000;

/** Most new events one `GET /events` response carries; the rest come with the next poll. */
export const MAX_EVENTS_PER_RESPONSE = 1000;

/**
 * Most unacknowledged events a queue keeps. A client that never
 * acknowledges would grow the queue item past DynamoDB's 400 KB item limit;
 * past this the queue is dropped and the client re-registers after
 * `BAD_EVENT_QUEUE_ID`, Zulip's documented recovery path.
 */
export const MAX_PENDING_EVENTS = 4000;

/** What `POST /register` returns as `event_queue_longpoll_timeout_seconds`: well above the hold time. */
export const LONGPOLL_CLIENT_TIMEOUT_SECONDS = 90;

/** Time kept in reserve before the Lambda's deadline when choosing the hold time. */
const DEADLINE_MARGIN_MS = 2000;

/** A save without any change is skipped while the queue's last activity is this recent. */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

const pad13 = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(13, "0");

/** A queue ID: registration time in milliseconds, a colon, 96 random bits (opaque to clients). */
function newQueueId(nowMs: number): string {
  return `${nowMs}:${randomBytes(12).toString("hex")}`;
}

/**
 * Creates an event queue for a user (the queue half of `POST /register`).
 * The queue's floor is now: everything written from now on is delivered,
 * so register must read its initial state after this call (an event racing
 * the snapshot is then delivered, possibly on top of a snapshot that shows
 * it: docs/events.md "Why the floor"). One round trip.
 */
export async function createEventQueue(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  options: QueueOptions,
): Promise<EventQueueRecord> {
  const now = deps.clock.now();
  const queue: EventQueueRecord = {
    ...options,
    queue_id: newQueueId(now),
    realm_id: realm.id,
    user_id: user.user_id,
    user_email: apiEmail(user, realm, deps.config),
    created_ms: now,
    reads_public_log: options.all_public_streams || (options.narrow.length > 0 && !isGuest(user)),
    log_cursor: pad13(now),
    public_cursor: pad13(now),
    typing_cursor: pad13(now),
    recent_keys: [],
    next_event_id: 0,
    newest_pruned_id: -1,
    pending: [],
    last_activity_ms: now,
    version: 0,
  };
  await putNewQueue(deps, queue, QUEUE_TIMEOUT_MS);
  return queue;
}

/**
 * Zulip folds the events that arrive while a registration snapshot is read
 * into the snapshot; this queue would deliver them on top of it. For
 * message events that is visible (a message counted unread twice), so the
 * ones whose message the snapshot already reports as unread are marked
 * consumed: their log keys join `recent_keys`, which every read skips.
 * Other event types racing a registration may still arrive twice (clients
 * key users, streams and subscriptions by ID; docs/events.md).
 *
 * Cost: one Query per log the queue reads, from the queue's creation
 * (usually empty), and one conditional save only when something is skipped.
 * Call it before the queue ID is returned (no poll can have saved yet).
 * @param shownUnread message IDs the snapshot lists in `unread_msgs`
 */
export async function skipMessagesShownInSnapshot(
  deps: Deps,
  queue: EventQueueRecord,
  shownUnread: ReadonlySet<number>,
): Promise<void> {
  if (shownUnread.size === 0) return;
  const from = pad13(queue.created_ms);
  const read = await Promise.all(
    // The typing log holds no message events.
    logsOf(deps, queue)
      .filter(({ s }) => s !== "T")
      .map(async ({ s, log }) => (await log.since(from, MAX_EVENTS_PER_RESPONSE)).map((item) => ({ s, item }))),
  );
  const shown = read.flat().filter(({ item }) => {
    const event = item.event as { type?: string; message?: { id?: number } };
    return event.type === "message" && shownUnread.has(Number(event.message?.id));
  });
  if (shown.length === 0) return;
  const readVersion = queue.version;
  queue.recent_keys = [...queue.recent_keys, ...shown.map(({ s, item }) => `${s}${item.key}`)];
  queue.version = readVersion + 1;
  await saveQueue(deps, queue, readVersion, QUEUE_TIMEOUT_MS);
}

/**
 * Whether a stored queue still answers: it exists and has had a request
 * within {@link QUEUE_TIMEOUT_MS} (checked against the clock, so the answer
 * does not wait for DynamoDB's TTL deletion).
 * @param nowMs the current time in milliseconds
 */
export function isLiveQueue(queue: EventQueueRecord | undefined, nowMs: number): queue is EventQueueRecord {
  return queue !== undefined && nowMs - queue.last_activity_ms <= QUEUE_TIMEOUT_MS;
}

type ReadSource = "U" | "R" | "T";

/**
 * The logs a queue reads, read in parallel and merged by key: the owner's
 * log, then for queues that read them the realm's public-stream log and
 * the realm's stream-typing log (its items addressed to the owner).
 */
function logsOf(deps: Deps, queue: EventQueueRecord): { s: ReadSource; log: EventLog }[] {
  const logs: { s: ReadSource; log: EventLog }[] = [{ s: "U", log: userEventLog(deps, queue.user_id) }];
  if (readsPublicLog(queue)) logs.push({ s: "R", log: realmPublicEventLog(deps, queue.realm_id) });
  if (readsTypingLog(queue)) logs.push({ s: "T", log: realmTypingEventLog(deps, queue.realm_id, queue.user_id) });
  return logs;
}

/** Where a queue last read a log up to (see {@link EventQueueRecord.typing_cursor} for the typing log). */
function cursorOf(queue: EventQueueRecord, s: ReadSource): string {
  return s === "U" ? queue.log_cursor : s === "R" ? queue.public_cursor : (queue.typing_cursor ?? queue.log_cursor);
}

/** Drops acknowledged events (Zulip's `EventQueue.prune` with its two consistency checks). */
function acknowledge(queue: EventQueueRecord, lastEventId: number): boolean {
  if (lastEventId < queue.newest_pruned_id) {
    throw new JsonableError(`An event newer than ${lastEventId} has already been pruned!`);
  }
  const before = queue.pending.length;
  for (const p of queue.pending) if (p.i <= lastEventId) queue.newest_pruned_id = Math.max(queue.newest_pruned_id, p.i);
  queue.pending = queue.pending.filter((p) => p.i > lastEventId);
  if (queue.newest_pruned_id !== lastEventId) throw new JsonableError(`Event ${lastEventId} was not in this queue`);
  return queue.pending.length !== before;
}

/** An event with its queue-local ID, as the client receives it (https://zulip.com/api/get-events). */
function withId(event: ZulipEvent, id: number): DeliveredEvent {
  return { ...event, id };
}

/** Rebuilds the events of unacknowledged entries from their log items (one BatchGet per 100). */
async function materializePending(deps: Deps, queue: EventQueueRecord): Promise<DeliveredEvent[]> {
  const refs = queue.pending.filter((p): p is PendingEvent & { s: ReadSource; k: string } => p.s !== "H" && !!p.k);
  const items = await logItemsByRef(deps, queue.user_id, queue.realm_id, refs);
  const out: DeliveredEvent[] = [];
  for (const p of queue.pending) {
    if (p.s === "H") {
      out.push({ type: "heartbeat", id: p.i });
      continue;
    }
    const item = items.get(`${p.s}${p.k}`);
    // An item past its one-hour retention is gone; so is its event.
    const event = item ? eventsForQueue(queue, item, p.s)[p.p ?? 0] : undefined;
    if (event) out.push(withId(event, p.i));
  }
  return out;
}

/**
 * Reads the queue's logs past its cursors (minus the look-back window),
 * turns each unseen item into this queue's events, gives them the next
 * queue-local IDs and records them as unacknowledged. Mutates `queue`.
 * One Query per log read, in parallel (see {@link logsOf}).
 * @returns the new events, with IDs, in log-key order
 */
async function collectNewEvents(deps: Deps, queue: EventQueueRecord): Promise<DeliveredEvent[]> {
  const nowKey = pad13(deps.clock.now());
  const recent = new Set(queue.recent_keys);
  const from = (cursor: string) => pad13(Math.max(queue.created_ms, eventKeyTime(cursor) - LOOKBACK_MS));
  const logs = logsOf(deps, queue);
  const reads = logs.map(({ s, log }) =>
    log
      .since(from(cursorOf(queue, s)), MAX_EVENTS_PER_RESPONSE, (k) => recent.has(`${s}${k}`))
      .then((items) => items.map((item) => ({ s, item }))),
  );
  const read = await Promise.all(reads);
  const merged = read.flat().sort((a, b) => (a.item.key < b.item.key ? -1 : 1));
  const typingRead = logs.findIndex(({ s }) => s === "T");
  let typingComplete = typingRead >= 0 && read[typingRead]!.length < MAX_EVENTS_PER_RESPONSE;

  const out: DeliveredEvent[] = [];
  for (const { s, item } of merged) {
    if (out.length >= MAX_EVENTS_PER_RESPONSE) {
      // Items left for the next poll may include typing items: keep the typing cursor where it is.
      typingComplete = false;
      break;
    }
    const events = eventsForQueue(queue, item, s);
    events.forEach((event, p) => {
      const id = queue.next_event_id++;
      queue.pending.push({ i: id, s, k: item.key, ...(p > 0 ? { p } : {}) });
      out.push(withId(event, id));
    });
    recent.add(`${s}${item.key}`);
    // A key from a writer whose clock runs ahead must not carry the cursor
    // into the future (later writes with correct clocks would fall behind
    // it): the cursor stops at the reader's now, and the key stays in
    // `recent_keys` until the cursor passes it.
    const cursor = item.key <= nowKey ? item.key : nowKey;
    if (s === "U" && cursor > queue.log_cursor) queue.log_cursor = cursor;
    if (s === "R" && cursor > queue.public_cursor) queue.public_cursor = cursor;
    if (s === "T" && cursor > cursorOf(queue, "T")) queue.typing_cursor = cursor;
  }
  // The typing log also holds other users' items, which never move the
  // cursor by being consumed: a read that consumed everything it found
  // moves it to the reader's clock, so the next read covers only the
  // look-back window (the realm's typing of a few seconds), as for the
  // other logs.
  if (typingComplete && nowKey > cursorOf(queue, "T")) queue.typing_cursor = nowKey;
  const keepFrom = {
    U: eventKeyTime(queue.log_cursor) - LOOKBACK_MS,
    R: eventKeyTime(queue.public_cursor) - LOOKBACK_MS,
    T: eventKeyTime(cursorOf(queue, "T")) - LOOKBACK_MS,
  };
  queue.recent_keys = [...recent].filter((k) => eventKeyTime(k.slice(1)) >= keepFrom[k[0] as ReadSource]);
  return out;
}

/**
 * When a long poll that starts now must answer at the latest: after
 * `holdMs`, or {@link DEADLINE_MARGIN_MS} before the Lambda's own deadline
 * when that comes first. Milliseconds since the epoch.
 * @param holdMs longest time to hold the request without events
 * @param remainingMs milliseconds left before the Lambda's deadline, when known
 */
export function pollDeadline(nowMs: number, holdMs: number, remainingMs?: number): number {
  return nowMs + Math.max(0, Math.min(holdMs, remainingMs !== undefined ? remainingMs - DEADLINE_MARGIN_MS : holdMs));
}

/** One poll of a queue: what to acknowledge, whether to wait, and until when. */
export interface PollRequest {
  /** Highest event ID the client has processed; undefined acknowledges nothing. */
  lastEventId?: number;
  dontBlock: boolean;
  /** Milliseconds since the epoch after which a poll without events answers with a heartbeat ({@link pollDeadline}). */
  deadline: number;
}

/**
 * One poll of a queue its caller may read (Zulip's `fetch_events` on a
 * `ClientDescriptor`): acknowledges `lastEventId`, then collects every
 * unacknowledged event with a higher ID plus what is new in the logs.
 * Without events and without `dontBlock`, it waits (re-reading after each
 * `deps.waitForEvents`) until an event comes or the deadline passes, then
 * answers with a `heartbeat` event. Mutates `queue`, and saves it with a
 * write conditional on the version it was read at.
 *
 * Round trips: 1 Query per log read, 1 BatchGet when re-delivering, 1
 * PutItem (skipped when nothing changed and the last activity is recent);
 * an idle poll re-reads every `LONGPOLL_RECHECK_MS` (configuration).
 *
 * @returns the events (each with `id`) in ID order; undefined when another
 *   poll of the queue saved first (or the queue was deleted): nothing was
 *   saved, the caller reads the queue again and redoes the poll
 * @throws BadEventQueueIdError when the queue holds more than
 *   {@link MAX_PENDING_EVENTS} unacknowledged events (it is deleted)
 * @throws JsonableError `Event <n> was not in this queue` / `An event newer than <n> has already been pruned!`
 */
export async function pollEventQueue(
  deps: Deps,
  queue: EventQueueRecord,
  req: PollRequest,
): Promise<DeliveredEvent[] | undefined> {
  const readVersion = queue.version;
  const cursorsBefore = { U: queue.log_cursor, R: queue.public_cursor };
  let changed = false;
  if (req.lastEventId !== undefined) changed = acknowledge(queue, req.lastEventId) || changed;
  const redelivered = queue.pending.length > 0 ? await materializePending(deps, queue) : [];
  let fresh = await collectNewEvents(deps, queue);

  if (redelivered.length === 0 && fresh.length === 0 && !req.dontBlock) {
    const wakeIds = [queue.user_id, ...(readsPublicLog(queue) ? [publicLogWakeId(queue.realm_id)] : [])];
    while (fresh.length === 0 && deps.clock.now() < req.deadline) {
      await deps.waitForEvents(wakeIds, Math.min(deps.config.LONGPOLL_RECHECK_MS, req.deadline - deps.clock.now()));
      fresh = await collectNewEvents(deps, queue);
    }
    if (fresh.length === 0) {
      const id = queue.next_event_id++;
      queue.pending.push({ i: id, s: "H" });
      fresh = [{ type: "heartbeat", id }];
    }
  }
  // Consumed-but-filtered items move the cursors too; saving them keeps the next read short.
  changed = changed || fresh.length > 0 || queue.log_cursor !== cursorsBefore.U || queue.public_cursor !== cursorsBefore.R;

  const now = deps.clock.now();
  if (queue.pending.length > MAX_PENDING_EVENTS) {
    await deleteQueueItem(deps, queue.queue_id);
    throw new BadEventQueueIdError(queue.queue_id);
  }
  if (changed || now - queue.last_activity_ms >= ACTIVITY_WRITE_INTERVAL_MS) {
    queue.last_activity_ms = now;
    queue.version = readVersion + 1;
    if (!(await saveQueue(deps, queue, readVersion, QUEUE_TIMEOUT_MS))) return undefined;
  }
  return [...redelivered, ...fresh];
}
