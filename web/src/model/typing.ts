/**
 * Who is typing where (Zulip's client `typing_data`): the `typing` events of
 * others (https://zulip.com/api/get-events#typing-start), each notice kept
 * until its `stop` or until it expires, since a sender's client repeats
 * `start` while typing and a lost `stop` must not leave the notice forever.
 */

/** How long a notice lives without a new `start` (Zulip's client: 15 s). Milliseconds. */
export const TYPING_EXPIRY_MS = 15_000;

/** By conversation key (`stream:<id>\0<topic>` or `dm:<key>`): typists' user IDs → expiry time (epoch milliseconds). */
export type TypingState = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** A typing change: someone started or stopped typing in a conversation. */
export interface TypingChange {
  op: "start" | "stop";
  senderId: number;
  key: string;
}

/**
 * Applies a `start` (notice until `nowMs` + `expiryMs`) or a `stop` (notice removed).
 * `expiryMs` is the server's `server_typing_started_expiry_period_milliseconds`
 * (register), {@link TYPING_EXPIRY_MS} when it sent none.
 */
export function applyTypingEvent(state: TypingState, change: TypingChange, nowMs: number, expiryMs = TYPING_EXPIRY_MS): TypingState {
  const typists = state.get(change.key);
  if (change.op === "stop" && !typists?.has(change.senderId)) return state;
  const nextTypists = new Map(typists ?? []);
  if (change.op === "start") nextTypists.set(change.senderId, nowMs + expiryMs);
  else nextTypists.delete(change.senderId);
  const next = new Map(state);
  if (nextTypists.size > 0) next.set(change.key, nextTypists);
  else next.delete(change.key);
  return next;
}

/** Who is typing in a conversation at `nowMs` (epoch milliseconds), by user ID, expired notices left out. */
export function typistsIn(state: TypingState, key: string, nowMs: number): number[] {
  const typists = state.get(key);
  if (!typists) return [];
  return [...typists].filter(([, expires]) => expires > nowMs).map(([id]) => id);
}

/** The typing key of a stream topic. */
export function streamTypingKey(streamId: number, topic: string): string {
  return `stream:${streamId}\u0000${topic.toLowerCase()}`;
}

/** The typing key of a direct-message conversation ({@link conversationKey} of its people). */
export function dmTypingKey(conversation: string): string {
  return `dm:${conversation}`;
}
