import { format } from "date-fns";
import type { ChatState } from "../../model/store.js";

/**
 * Where an unsent message goes, as the drafts and scheduled lists name it:
 * `#general > lunch`, or the other people's names (`Iago, Cordelia`; the
 * reader's own name for notes to self); `No recipient` when unaddressed.
 */
export function recipientText(
  state: ChatState,
  target: { type: "stream"; stream_id: number; topic: string } | { type: "private"; user_ids: number[] } | null,
): string {
  if (!target) return "No recipient";
  if (target.type === "stream") return `#${state.streams.get(target.stream_id)?.name ?? "unknown"} > ${target.topic}`;
  const others = target.user_ids.filter((id) => id !== state.me.user_id);
  const ids = others.length > 0 ? others : [state.me.user_id];
  return ids.map((id) => state.users.get(id)?.full_name ?? "Unknown user").join(", ");
}

/** A time (UNIX seconds) with its date, in the reader's time zone: `Sat, Nov 28, 9:00 AM` (or `09:00`). */
export function whenText(seconds: number, twentyFourHour: boolean): string {
  return format(new Date(seconds * 1000), twentyFourHour ? "EEE, MMM d, HH:mm" : "EEE, MMM d, h:mm a");
}

/** An hour as the reader's clock shows it: `9:00 AM`, or `09:00` with a 24-hour clock. */
export function hourText(d: Date, twentyFourHour: boolean): string {
  return d.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit", hour12: !twentyFourHour });
}
