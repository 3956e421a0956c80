/**
 * The reader's unread messages (Zulip's client `unread.ts`): built from
 * register's `unread_msgs` (https://zulip.com/api/register-queue) and kept
 * current by events. Immutable: every change returns a new state, so views
 * can memoize counts on the state's identity.
 */
import { conversationKey, isMentioned, messageUserIds, type Message } from "./types.js";

/** Where an unread message is: a stream topic, or a direct-message conversation ({@link conversationKey}). */
export type UnreadPlace = { type: "stream"; stream_id: number; topic: string } | { type: "private"; key: string };

/** The unread state: each unread message's place, and which of them mention the reader. */
export interface UnreadState {
  messages: ReadonlyMap<number, UnreadPlace>;
  mentions: ReadonlySet<number>;
  /** Register said more unread messages exist than it listed (`old_unreads_missing`). */
  oldUnreadsMissing: boolean;
}

/** Register's `unread_msgs` object. */
export interface RegisterUnreads {
  pms: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing?: boolean;
  count?: number;
}

/** The counts the sidebar and inbox show. */
export interface UnreadCounts {
  /** The combined feed's count: muted streams and topics left out (Zulip's home view). */
  total: number;
  /** By stream ID: unread messages of its topics that are not muted. */
  byStream: Map<number, number>;
  /** By {@link topicKey}: every topic's count, muted or not. */
  byTopic: Map<string, number>;
  /** By conversation key. */
  byConversation: Map<string, number>;
  /** Unread messages that mention the reader. */
  mentions: number;
}

/** What counting needs of the reader's muting (policy: 0 none, 1 muted, 2 unmuted, 3 followed). */
export interface Muting {
  isStreamMuted(streamId: number): boolean;
  topicPolicy(streamId: number, topic: string): number;
}

/** The key of a stream topic in {@link UnreadCounts.byTopic}: topics compare without case. */
export function topicKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.toLowerCase()}`;
}

/** An empty state. */
export const EMPTY_UNREAD: UnreadState = { messages: new Map(), mentions: new Set(), oldUnreadsMissing: false };

/**
 * The state from register's `unread_msgs`: `pms` by `other_user_id` (or the
 * older `sender_id`), `huddles` by `user_ids_string` (the reader included),
 * `streams` by stream and topic, `mentions` by ID.
 */
export function unreadFromRegister(raw: RegisterUnreads, myUserId: number): UnreadState {
  const messages = new Map<number, UnreadPlace>();
  for (const pm of raw.pms) {
    const other = pm.other_user_id ?? pm.sender_id ?? myUserId;
    const key = conversationKey([other], myUserId);
    for (const id of pm.unread_message_ids) messages.set(id, { type: "private", key });
  }
  for (const h of raw.huddles) {
    const key = conversationKey(h.user_ids_string.split(",").map(Number), myUserId);
    for (const id of h.unread_message_ids) messages.set(id, { type: "private", key });
  }
  for (const s of raw.streams) {
    for (const id of s.unread_message_ids) messages.set(id, { type: "stream", stream_id: s.stream_id, topic: s.topic });
  }
  const mentions = new Set(raw.mentions.filter((id) => messages.has(id)));
  return { messages, mentions, oldUnreadsMissing: raw.old_unreads_missing ?? false };
}

/** The place of a message. */
export function placeOf(message: Pick<Message, "type" | "stream_id" | "subject" | "display_recipient" | "sender_id">, myUserId: number): UnreadPlace {
  if (message.type === "stream" && message.stream_id !== undefined) {
    return { type: "stream", stream_id: message.stream_id, topic: message.subject };
  }
  return { type: "private", key: conversationKey(messageUserIds(message), myUserId) };
}

/** A new message (`message` event): unread unless its flags say `read` (the reader's own messages arrive read). */
export function unreadAddMessage(state: UnreadState, message: Message, flags: readonly string[], myUserId: number): UnreadState {
  if (flags.includes("read") || state.messages.has(message.id)) return state;
  const messages = new Map(state.messages).set(message.id, placeOf(message, myUserId));
  const mentions = isMentioned(flags) ? new Set(state.mentions).add(message.id) : state.mentions;
  return { ...state, messages, mentions };
}

/** Messages became read (flag `read` added, or deleted): drops them; `all` drops everything. */
export function unreadRemove(state: UnreadState, ids: readonly number[], all = false): UnreadState {
  if (all) return { ...EMPTY_UNREAD, messages: new Map(), mentions: new Set() };
  if (!ids.some((id) => state.messages.has(id))) return state;
  const messages = new Map(state.messages);
  const mentions = new Set(state.mentions);
  for (const id of ids) {
    messages.delete(id);
    mentions.delete(id);
  }
  return { ...state, messages, mentions };
}

/** Zulip's `message_details` of an `update_message_flags` remove of `read` (the messages' places). */
export type MessageDetails = Record<
  string,
  { type: "private" | "stream"; mentioned?: boolean; user_ids?: number[]; stream_id?: number; topic?: string }
>;

/**
 * Messages marked unread again (flag `read` removed): their places come from
 * the event's `message_details`, or else from messages the app has loaded
 * (`known`); a message found in neither is left out.
 */
export function unreadRestore(
  state: UnreadState,
  ids: readonly number[],
  details: MessageDetails | undefined,
  known: (id: number) => Message | undefined,
  myUserId: number,
): UnreadState {
  const messages = new Map(state.messages);
  const mentions = new Set(state.mentions);
  for (const id of ids) {
    const d = details?.[String(id)];
    const loaded = known(id);
    let place: UnreadPlace | undefined;
    if (d?.type === "stream" && d.stream_id !== undefined && d.topic !== undefined) {
      place = { type: "stream", stream_id: d.stream_id, topic: d.topic };
    } else if (d?.type === "private") {
      place = { type: "private", key: conversationKey([...(d.user_ids ?? []), myUserId], myUserId) };
    } else if (loaded) place = placeOf(loaded, myUserId);
    if (!place) continue;
    messages.set(id, place);
    if (d?.mentioned || (loaded && isMentioned(loaded.flags))) mentions.add(id);
  }
  return { ...state, messages, mentions };
}

/**
 * Messages moved (`update_message` with a new stream or topic): the unread
 * ones among `ids` take the new stream and/or topic.
 */
export function unreadMove(state: UnreadState, ids: readonly number[], newStreamId: number | undefined, newTopic: string | undefined): UnreadState {
  if (!ids.some((id) => state.messages.get(id)?.type === "stream")) return state;
  const messages = new Map(state.messages);
  for (const id of ids) {
    const place = messages.get(id);
    if (place?.type !== "stream") continue;
    messages.set(id, { type: "stream", stream_id: newStreamId ?? place.stream_id, topic: newTopic ?? place.topic });
  }
  return { ...state, messages };
}

/**
 * Counts for the sidebar and the inbox. A stream's count leaves out its muted
 * topics; the total leaves out what the combined feed hides (muted streams
 * unless the topic is unmuted or followed, muted topics), as Zulip does.
 */
export function unreadCounts(state: UnreadState, muting: Muting): UnreadCounts {
  const byStream = new Map<number, number>();
  const byTopic = new Map<string, number>();
  const byConversation = new Map<string, number>();
  let total = 0;
  for (const place of state.messages.values()) {
    if (place.type === "private") {
      byConversation.set(place.key, (byConversation.get(place.key) ?? 0) + 1);
      total += 1;
      continue;
    }
    const tk = topicKey(place.stream_id, place.topic);
    byTopic.set(tk, (byTopic.get(tk) ?? 0) + 1);
    const policy = muting.topicPolicy(place.stream_id, place.topic);
    if (policy === 1) continue;
    byStream.set(place.stream_id, (byStream.get(place.stream_id) ?? 0) + 1);
    if (!muting.isStreamMuted(place.stream_id) || policy === 2 || policy === 3) total += 1;
  }
  return { total, byStream, byTopic, byConversation, mentions: state.mentions.size };
}

/**
 * The unread conversations for the inbox: stream topics (with their display
 * name, the newest unread ID) and DM conversations, each with its unread IDs.
 */
export function unreadConversations(state: UnreadState): {
  topics: { stream_id: number; topic: string; ids: number[] }[];
  conversations: { key: string; ids: number[] }[];
} {
  const topics = new Map<string, { stream_id: number; topic: string; ids: number[] }>();
  const conversations = new Map<string, { key: string; ids: number[] }>();
  for (const [id, place] of state.messages) {
    if (place.type === "stream") {
      const k = topicKey(place.stream_id, place.topic);
      const entry = topics.get(k) ?? { stream_id: place.stream_id, topic: place.topic, ids: [] };
      entry.ids.push(id);
      topics.set(k, entry);
    } else {
      const entry = conversations.get(place.key) ?? { key: place.key, ids: [] };
      entry.ids.push(id);
      conversations.set(place.key, entry);
    }
  }
  const newest = (ids: number[]) => Math.max(...ids);
  return {
    topics: [...topics.values()].sort((a, b) => newest(b.ids) - newest(a.ids)),
    conversations: [...conversations.values()].sort((a, b) => newest(b.ids) - newest(a.ids)),
  };
}
