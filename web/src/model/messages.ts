/**
 * The message list of one view (Zulip's client `MessageListData`): the loaded
 * messages sorted by ID without duplicates, the anchor paging state of
 * `GET /messages` (https://zulip.com/api/get-messages), local echoes of
 * messages sent from this page, and the events that change loaded messages.
 * Immutable: each function returns a new list (or the same one if nothing changed).
 */
import type { DeliveredEvent } from "./types.js";
import { apiNarrow, messageMatchesNarrow, narrowIsLocal, nearMessageId, type MatchContext, type View } from "./narrow.js";
import type { Message, Reaction } from "./types.js";

/** How many messages one page of older or newer messages asks for. */
export const PAGE_SIZE = 100;

/**
 * How many messages the first page of a view asks for on each side of its
 * anchor: a screen shows about twenty, and a smaller first answer comes
 * sooner; scrolling fetches {@link PAGE_SIZE} more at a time.
 */
export const FIRST_PAGE_SIZE = 50;

/** One view's messages and paging state. */
export interface MessageList {
  view: View;
  /** Server-confirmed messages, ascending by ID, no duplicates. */
  messages: Message[];
  /** Messages sent from this page not yet confirmed (shown after `messages`). */
  local: Message[];
  /** Whether nothing older (newer) exists than the oldest (newest) loaded message. */
  foundOldest: boolean;
  foundNewest: boolean;
  /** Whether the first page has arrived. */
  loaded: boolean;
  /** The ID of the first unread message of the first page, where the view opens (the server's `anchor` for `first_unread`). */
  anchorId: number | undefined;
}

/** A new, empty list for a view (nothing loaded). */
export function emptyList(view: View): MessageList {
  return { view, messages: [], local: [], foundOldest: false, foundNewest: false, loaded: false, anchorId: undefined };
}

/** The parameters of `GET /messages`: anchor, sizes, narrow (JSON), rendered HTML, avatars for everyone. */
export type FetchParams = {
  anchor: string | number;
  num_before: number;
  num_after: number;
  include_anchor?: boolean;
  narrow: ReturnType<typeof apiNarrow>;
  apply_markdown: true;
  client_gravatar: false;
};

/**
 * The first page: around the message of a `near` term (a link to a
 * message), else around the first unread message where the view marks
 * messages read (`first_unread`; the server falls back to the newest), else
 * the newest.
 */
export function firstPageParams(list: MessageList, marksRead: boolean): FetchParams {
  const near = nearMessageId(list.view);
  if (near !== undefined) {
    return { anchor: near, num_before: FIRST_PAGE_SIZE, num_after: FIRST_PAGE_SIZE, narrow: apiNarrow(list.view), apply_markdown: true, client_gravatar: false };
  }
  return {
    anchor: marksRead ? "first_unread" : "newest",
    num_before: FIRST_PAGE_SIZE,
    num_after: marksRead ? FIRST_PAGE_SIZE : 0,
    narrow: apiNarrow(list.view),
    apply_markdown: true,
    client_gravatar: false,
  };
}

/** The page before the oldest loaded message (`anchor` its ID, `include_anchor` false); undefined when all older ones are loaded. */
export function olderPageParams(list: MessageList): FetchParams | undefined {
  const oldest = list.messages[0];
  if (list.foundOldest || !oldest) return undefined;
  return { ...firstPageParams(list, false), anchor: oldest.id, num_before: PAGE_SIZE, num_after: 0, include_anchor: false };
}

/** The page after the newest loaded message; undefined when the newest is loaded. */
export function newerPageParams(list: MessageList): FetchParams | undefined {
  const newest = list.messages.at(-1);
  if (list.foundNewest || !newest) return undefined;
  return { ...firstPageParams(list, false), anchor: newest.id, num_before: 0, num_after: PAGE_SIZE, include_anchor: false };
}

/**
 * The messages after the newest loaded one, whether or not the list reached
 * the newest (for a first page fetched before the event queue existed); from
 * the start of the view when nothing is loaded (`anchor` 0).
 */
export function catchUpParams(list: MessageList): FetchParams {
  return { ...firstPageParams(list, false), anchor: list.messages.at(-1)?.id ?? 0, num_before: 0, num_after: PAGE_SIZE, include_anchor: false };
}

/** The answer of `GET /messages`. */
export interface FetchResult {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor?: boolean;
  anchor?: number;
}

/** Merges messages into a sorted, deduplicated array (a fresh copy of a message replaces the loaded one). */
function merge(existing: Message[], incoming: Message[]): Message[] {
  const byId = new Map(existing.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Applies a page: `direction` `first` sets both ends' flags, `older` sets
 * `foundOldest`, `newer` sets `foundNewest`. Messages merge by ID.
 */
export function applyPage(list: MessageList, result: FetchResult, direction: "first" | "older" | "newer"): MessageList {
  const messages = merge(list.messages, result.messages.map((m) => ({ ...m, flags: m.flags ?? [] })));
  const next: MessageList = { ...list, messages, loaded: true };
  if (direction !== "newer") next.foundOldest = result.found_oldest;
  if (direction !== "older") next.foundNewest = result.found_newest;
  if (direction === "first") {
    const near = nearMessageId(list.view);
    const firstUnread = result.messages.find((m) => !(m.flags ?? []).includes("read"));
    next.anchorId = near !== undefined && result.messages.some((m) => m.id === near) ? near : (firstUnread?.id ?? result.messages.at(-1)?.id);
  }
  return next;
}

/**
 * Shows a message being sent (local echo): added to `local` when the view
 * would show it. Its `id` is provisional (above every loaded ID), its `local_id` the one sent.
 */
export function addLocalEcho(list: MessageList, echo: Message, ctx: MatchContext): MessageList {
  if (!list.foundNewest || !matchesView(list, echo, ctx)) return list;
  return { ...list, local: [...list.local, echo] };
}

/** Drops a local echo (its send failed). */
export function removeLocalEcho(list: MessageList, localId: string): MessageList {
  return list.local.some((m) => m.local_id === localId) ? { ...list, local: list.local.filter((m) => m.local_id !== localId) } : list;
}

function matchesView(list: MessageList, m: Message, ctx: MatchContext): boolean {
  if (list.view.kind === "inbox") return false;
  const terms = list.view.kind === "feed" ? [] : list.view.terms;
  return narrowIsLocal(terms) && messageMatchesNarrow(m, terms, ctx);
}

/**
 * A `message` event: the message joins the list when the newest messages are
 * loaded (else a gap would open) and the view shows it; a local echo with the
 * event's `local_message_id` (or `local_id`) gives way to it.
 */
export function addLiveMessage(list: MessageList, event: DeliveredEvent<"message">, ctx: MatchContext): MessageList {
  const localId = event.local_message_id ?? event.local_id;
  let next = localId !== undefined ? removeLocalEcho(list, localId) : list;
  const message: Message = { ...event.message, flags: event.flags };
  if (next.foundNewest && matchesView(next, message, ctx) && !next.messages.some((m) => m.id === message.id)) {
    next = { ...next, messages: merge(next.messages, [message]) };
  }
  return next;
}

/** Changes the loaded messages among `ids` with `change`; the same list when none is loaded. */
function updateMessages(list: MessageList, ids: readonly number[], change: (m: Message) => Message): MessageList {
  const wanted = new Set(ids);
  if (!list.messages.some((m) => wanted.has(m.id))) return list;
  return { ...list, messages: list.messages.map((m) => (wanted.has(m.id) ? change(m) : m)) };
}

/**
 * An `update_message` event (https://zulip.com/api/get-events#update_message):
 * new content (`rendered_content`, as the app asked for HTML) for
 * `message_id`; a new topic (`subject`) and/or stream (`new_stream_id`) for
 * every message of `message_ids`. Moved messages that no longer belong to the
 * view leave it.
 */
export function applyUpdateMessage(list: MessageList, event: DeliveredEvent<"update_message">, ctx: MatchContext): MessageList {
  let next = list;
  if (event.rendered_content !== undefined) {
    next = updateMessages(next, [event.message_id], (m) => ({
      ...m,
      content: event.rendered_content!,
      ...(event.rendering_only ? {} : { last_edit_timestamp: event.edit_timestamp }),
    }));
  }
  if (event.subject !== undefined || event.new_stream_id !== undefined) {
    next = updateMessages(next, event.message_ids, (m) => ({
      ...m,
      ...(event.subject !== undefined ? { subject: event.subject } : {}),
      ...(event.new_stream_id !== undefined ? { stream_id: event.new_stream_id } : {}),
      last_edit_timestamp: event.edit_timestamp,
    }));
    if (next !== list && list.view.kind === "narrow" && narrowIsLocal(list.view.terms)) {
      const moved = new Set(event.message_ids);
      next = { ...next, messages: next.messages.filter((m) => !moved.has(m.id) || matchesView(next, m, ctx)) };
    }
  }
  return next;
}

/** A `delete_message` event (one `message_id`, or `message_ids`). */
export function applyDeleteMessage(list: MessageList, event: DeliveredEvent<"delete_message">): MessageList {
  const ids = new Set("message_ids" in event ? event.message_ids : [event.message_id]);
  if (!list.messages.some((m) => ids.has(m.id))) return list;
  return { ...list, messages: list.messages.filter((m) => !ids.has(m.id)) };
}

/** Whether two reactions are the same person's same emoji. */
function sameReaction(a: Reaction, b: Pick<Reaction, "user_id" | "reaction_type" | "emoji_code">): boolean {
  return a.user_id === b.user_id && a.reaction_type === b.reaction_type && a.emoji_code === b.emoji_code;
}

/** A `reaction` event: adds (once) or removes the person's emoji on the message. */
export function applyReaction(list: MessageList, event: DeliveredEvent<"reaction/add"> | DeliveredEvent<"reaction/remove">): MessageList {
  const reaction: Reaction = {
    emoji_name: event.emoji_name,
    emoji_code: event.emoji_code,
    reaction_type: event.reaction_type,
    user_id: event.user_id,
  };
  return updateMessages(list, [event.message_id], (m) => {
    const others = m.reactions.filter((r) => !sameReaction(r, reaction));
    return { ...m, reactions: event.op === "add" ? [...others, reaction] : others };
  });
}

/** An `update_message_flags` event: the flag added to or removed from the messages (`all`: every loaded message). */
export function applyFlags(
  list: MessageList,
  event: DeliveredEvent<"update_message_flags/add"> | DeliveredEvent<"update_message_flags/remove">,
): MessageList {
  const ids = event.all ? list.messages.map((m) => m.id) : event.messages;
  return updateMessages(list, ids, (m) => {
    const has = m.flags.includes(event.flag);
    if (event.op === "add") return has ? m : { ...m, flags: [...m.flags, event.flag] };
    return has ? { ...m, flags: m.flags.filter((f) => f !== event.flag) } : m;
  });
}

/** Every message the view shows, confirmed then local echoes. */
export function shownMessages(list: MessageList): Message[] {
  return list.local.length === 0 ? list.messages : [...list.messages, ...list.local];
}

/** Reactions of a message grouped by emoji, in first-reacted order, with who reacted. */
export function groupReactions(reactions: readonly Reaction[]): { emoji_name: string; emoji_code: string; reaction_type: Reaction["reaction_type"]; user_ids: number[] }[] {
  const groups = new Map<string, { emoji_name: string; emoji_code: string; reaction_type: Reaction["reaction_type"]; user_ids: number[] }>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_ids: [] };
    g.user_ids.push(r.user_id);
    groups.set(key, g);
  }
  return [...groups.values()];
}
