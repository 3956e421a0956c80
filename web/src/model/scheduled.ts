/**
 * Scheduled messages (https://zulip.com/help/schedule-a-message): the
 * reader's list as `POST /register` sends it (`scheduled_messages`) and the
 * `scheduled_messages` events keep it (add, update, remove), the send-later
 * presets Zulip's compose box offers, and the request bodies of
 * `POST /scheduled_messages` and `PATCH /scheduled_messages/{id}`
 * (https://zulip.com/api/create-scheduled-message). Pure, no view code.
 */
import type { DeliveredEvent } from "./types.js";

/** A scheduled message on the wire (`scheduled_delivery_timestamp` in UNIX seconds; `to` a stream ID or user IDs). */
export type ScheduledMessage = DeliveredEvent<"scheduled_messages/update">["scheduled_message"];

/** The reader's scheduled messages by ID. */
export type ScheduledState = ReadonlyMap<number, ScheduledMessage>;

/** A `scheduled_messages` event of any op. */
export type ScheduledEvent =
  | DeliveredEvent<"scheduled_messages/add">
  | DeliveredEvent<"scheduled_messages/update">
  | DeliveredEvent<"scheduled_messages/remove">;

/** Where a scheduled message goes (as compose holds it). */
export type ScheduleTarget = { type: "stream"; stream_id: number; topic: string } | { type: "private"; user_ids: number[] };

/** The list from register's `scheduled_messages` (absent: empty). */
export function scheduledFromRegister(raw: unknown): ScheduledState {
  const list = Array.isArray(raw) ? (raw as ScheduledMessage[]) : [];
  return new Map(list.map((m) => [m.scheduled_message_id, m]));
}

/**
 * Applies a `scheduled_messages` event
 * (https://zulip.com/api/get-events#scheduled_messages-add): `add` adds or
 * replaces each, `update` replaces one (a message the list does not hold is
 * added), `remove` drops one (sent, deleted, or failed and removed).
 */
export function applyScheduledEvent(state: ScheduledState, event: ScheduledEvent): ScheduledState {
  const next = new Map(state);
  if (event.op === "add") for (const m of event.scheduled_messages) next.set(m.scheduled_message_id, m);
  else if (event.op === "update") next.set(event.scheduled_message.scheduled_message_id, event.scheduled_message);
  else if (!next.delete(event.scheduled_message_id)) return state;
  return next;
}

/** The list in delivery order (soonest first; equal times by ID). */
export function sortedScheduled(state: ScheduledState): ScheduledMessage[] {
  return [...state.values()].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

/** Where a scheduled message goes, in compose's terms. */
export function scheduledTarget(m: ScheduledMessage): ScheduleTarget {
  if (m.type === "stream") return { type: "stream", stream_id: typeof m.to === "number" ? m.to : (m.to[0] ?? 0), topic: m.topic ?? "" };
  return { type: "private", user_ids: Array.isArray(m.to) ? [...m.to] : [m.to] };
}

/** One of the send-later choices: its label (`Tomorrow at 9:00 AM`) and time (UNIX seconds). */
export interface SchedulePreset {
  label: string;
  timestamp: number;
}

function at(day: Date, hour: number): Date {
  const d = new Date(day);
  d.setHours(hour, 0, 0, 0);
  return d;
}

function addDays(day: Date, n: number): Date {
  const d = new Date(day);
  d.setDate(d.getDate() + n);
  return d;
}

/**
 * Zulip's send-later presets (https://zulip.com/help/schedule-a-message), in
 * the reader's time zone: before 9 am "Today at 9:00 AM" and "Today at
 * 4:00 PM"; before 4 pm "Today at 4:00 PM" and "Tomorrow at 9:00 AM"; later
 * "Tomorrow at 9:00 AM" and "Tomorrow at 4:00 PM"; on Friday, Saturday and
 * Sunday also "Monday at 9:00 AM". `timeText` writes an hour (`9:00 AM`, or
 * `09:00` for a 24-hour clock).
 */
export function schedulePresets(now: Date, timeText: (d: Date) => string): SchedulePreset[] {
  const preset = (dayWord: string, d: Date): SchedulePreset => ({ label: `${dayWord} at ${timeText(d)}`, timestamp: Math.floor(d.getTime() / 1000) });
  const today9 = at(now, 9);
  const today16 = at(now, 16);
  const tomorrow = addDays(now, 1);
  const out: SchedulePreset[] = [];
  if (now < today9) out.push(preset("Today", today9), preset("Today", today16));
  else if (now < today16) out.push(preset("Today", today16), preset("Tomorrow", at(tomorrow, 9)));
  else out.push(preset("Tomorrow", at(tomorrow, 9)), preset("Tomorrow", at(tomorrow, 16)));
  const weekday = now.getDay();
  if (weekday === 5 || weekday === 6 || weekday === 0) {
    const toMonday = (8 - weekday) % 7 || 7;
    out.push(preset("Monday", at(addDays(now, toMonday), 9)));
  }
  return out;
}

/**
 * The value of an `<input type="datetime-local">` (`2026-11-28T09:30`, local
 * time) as UNIX seconds; undefined when it is not a date and time.
 */
export function localInputToTimestamp(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  return Number.isNaN(date.getTime()) ? undefined : Math.floor(date.getTime() / 1000);
}

/** A time (UNIX seconds) as an `<input type="datetime-local">` value, local time, to the minute. */
export function timestampToLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The parameters of `POST /scheduled_messages` (and of a full `PATCH`): type, `to`, topic, content and the time (UNIX seconds). */
export function scheduleParams(target: ScheduleTarget, content: string, timestamp?: number): Record<string, string | number | number[]> {
  return {
    type: target.type === "stream" ? "stream" : "direct",
    to: target.type === "stream" ? target.stream_id : target.user_ids,
    ...(target.type === "stream" ? { topic: target.topic } : {}),
    content,
    ...(timestamp !== undefined ? { scheduled_delivery_timestamp: timestamp } : {}),
  };
}
