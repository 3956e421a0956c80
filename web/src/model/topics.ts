/**
 * Topic actions as chat logic, without views: the names Zulip gives a topic
 * when it is resolved or unresolved, who may rename or move a topic under the
 * organization's policies, the request that moves a whole topic, and where
 * an open topic view goes when its topic moves.
 * https://zulip.com/help/resolve-a-topic, https://zulip.com/help/rename-a-topic,
 * https://zulip.com/help/move-content-to-another-channel
 */
import type { ParamValue } from "../api/client.js";
import { messageMatchesNarrow, narrowStreamTopic, type MatchContext, type NarrowTerm, type View } from "./narrow.js";
import type { MessageList } from "./messages.js";
import { checkRolePolicy, isFullMemberAt, ROLE } from "./roles.js";
import { RESOLVED_TOPIC_PREFIX, sameTopic, type DeliveredEvent } from "./types.js";

/** The visibility policies of `POST /user_topics` (https://zulip.com/api/update-user-topic). */
export const VISIBILITY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Whether a topic name is resolved (starts with Zulip's "✔ "). */
export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

/** A topic's name without every leading "✔ " (Zulip strips repeated prefixes when unresolving). */
export function unresolvedName(topic: string): string {
  let name = topic;
  while (name.startsWith(RESOLVED_TOPIC_PREFIX)) name = name.slice(RESOLVED_TOPIC_PREFIX.length);
  return name;
}

/** The resolved name of a topic: "✔ " once before its unresolved name. */
export function resolvedName(topic: string): string {
  return RESOLVED_TOPIC_PREFIX + unresolvedName(topic);
}

/**
 * The `PATCH /messages/{message_id}` parameters that rename or move a whole
 * topic (https://zulip.com/api/update-message): `propagate_mode` `change_all`,
 * the new `topic` when it changed, `stream_id` when the stream changed, and
 * whether the notification bot posts in the old and new places.
 */
export function moveTopicParams(move: {
  fromStreamId: number;
  fromTopic: string;
  toStreamId: number;
  toTopic: string;
  notifyOld: boolean;
  notifyNew: boolean;
}): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {
    propagate_mode: "change_all",
    send_notification_to_old_thread: move.notifyOld,
    send_notification_to_new_thread: move.notifyNew,
  };
  if (move.toTopic !== move.fromTopic) params.topic = move.toTopic;
  if (move.toStreamId !== move.fromStreamId) params.stream_id = move.toStreamId;
  return params;
}

/**
 * The request that resolves or unresolves a topic: a rename to {@link resolvedName}
 * or {@link unresolvedName}, with the notification in the topic's new place
 * only (Zulip's notification bot says who resolved it).
 */
export function resolveParams(topic: string): Record<string, ParamValue> {
  return {
    propagate_mode: "change_all",
    topic: isResolved(topic) ? unresolvedName(topic) : resolvedName(topic),
    send_notification_to_old_thread: false,
    send_notification_to_new_thread: true,
  };
}

/** Who acts, as the permission checks need them: role and joining date (UNIX seconds). */
export interface Actor {
  role: number;
  dateJoinedSeconds: number;
}

/**
 * Whether a person passes one of Zulip's integer permission policies
 * (`edit_topic_policy`, `move_messages_between_streams_policy`): 1 members,
 * 2 administrators, 3 full members (past `waiting_period_threshold` days),
 * 4 moderators, 5 everyone; guests only under 5.
 */
export function policyAllows(policy: number, actor: Actor, waitingPeriodDays: number, nowSeconds: number): boolean {
  return checkRolePolicy(policy, actor.role, isFullMemberAt(actor.role, actor.dateJoinedSeconds, waitingPeriodDays, nowSeconds));
}

/** What the reader may do with a topic, each with the reason when not. */
export interface TopicPermissions {
  /** Rename (and resolve) within the stream; null when allowed, else why not. */
  rename: string | null;
  /** Move to another stream; null when allowed, else why not. */
  move: string | null;
}

/**
 * The reader's topic permissions under the organization's settings (register's
 * `realm_edit_topic_policy`, `realm_move_messages_between_streams_policy`,
 * `realm_move_messages_within_stream_limit_seconds`,
 * `realm_move_messages_between_streams_limit_seconds`,
 * `realm_waiting_period_threshold`). `messageTimestamp` (UNIX seconds) is the
 * newest message's when known: members past the time limit are refused, as the
 * server does; moderators have no limit.
 */
export function topicPermissions(
  realm: Readonly<Record<string, unknown>>,
  actor: Actor,
  nowSeconds: number,
  messageTimestamp?: number,
): TopicPermissions {
  const waiting = Number(realm.realm_waiting_period_threshold ?? 0);
  const limited = (key: string) => {
    const limit = realm[key];
    return actor.role > ROLE.moderator && typeof limit === "number" && messageTimestamp !== undefined && nowSeconds - messageTimestamp > limit;
  };
  let rename: string | null = null;
  if (!policyAllows(Number(realm.realm_edit_topic_policy ?? 5), actor, waiting, nowSeconds)) {
    rename = "You do not have permission to rename topics in this organization.";
  } else if (limited("realm_move_messages_within_stream_limit_seconds")) {
    rename = "The time limit for editing this topic has passed.";
  }
  let move: string | null = null;
  if (!policyAllows(Number(realm.realm_move_messages_between_streams_policy ?? 4), actor, waiting, nowSeconds)) {
    move = "You do not have permission to move messages to another channel in this organization.";
  } else if (limited("realm_move_messages_between_streams_limit_seconds")) {
    move = "The time limit for moving this topic to another channel has passed.";
  }
  return { rename, move };
}

/**
 * Where an open topic view goes when its topic moves (Zulip's web app follows
 * the conversation): for an `update_message` event that moves a whole topic
 * (`change_all`, or `change_later` taking along a message the view shows) out
 * of the stream and topic the view shows, the view of the new place; else
 * undefined. Only a plain `channel` + `topic` narrow follows.
 */
export function followMovedTopic(view: View, event: DeliveredEvent<"update_message">, shownIds: readonly number[] = []): View | undefined {
  if (view.kind !== "narrow" || view.terms.length !== 2) return undefined;
  const open = narrowStreamTopic(view.terms);
  if (open?.topic === undefined) return undefined;
  if (event.subject === undefined && event.new_stream_id === undefined) return undefined;
  if (event.stream_id !== open.streamId || event.orig_subject === undefined || !sameTopic(event.orig_subject, open.topic)) return undefined;
  const mode = event.propagate_mode;
  const moved = new Set(event.message_ids);
  if (mode !== "change_all" && !(mode === "change_later" && shownIds.some((id) => moved.has(id)))) return undefined;
  const terms: NarrowTerm[] = [
    { operator: "channel", operand: event.new_stream_id ?? open.streamId },
    { operator: "topic", operand: event.subject ?? event.orig_subject },
  ];
  return { kind: "narrow", terms };
}

/**
 * The list after the reader's topic visibility changed (a `user_topic`
 * event): views that hide muted topics (the combined feed, `in:home`) drop
 * loaded messages they no longer show, as Zulip's feed does on muting.
 */
export function refilterForMuting(list: MessageList, ctx: MatchContext): MessageList {
  const terms = list.view.kind === "feed" ? [] : list.view.kind === "narrow" ? list.view.terms : undefined;
  if (!terms || !(terms.length === 0 || terms.some((t) => t.operator === "in" && t.operand === "home"))) return list;
  const messages = list.messages.filter((m) => messageMatchesNarrow(m, terms, ctx));
  return messages.length === list.messages.length ? list : { ...list, messages };
}

/**
 * The sidebar's topic lists after a whole topic moved away (`change_all`):
 * the old name leaves its stream's list (Zulip drops a topic with no
 * messages left); the new place is added by the caller as for any message.
 */
export function dropMovedTopic<T extends { name: string }>(
  topics: ReadonlyMap<number, T[]>,
  event: Pick<DeliveredEvent<"update_message">, "propagate_mode" | "stream_id" | "orig_subject" | "subject" | "new_stream_id">,
): ReadonlyMap<number, T[]> {
  if (event.propagate_mode !== "change_all" || event.stream_id === undefined || event.orig_subject === undefined) return topics;
  if (event.subject === undefined && event.new_stream_id === undefined) return topics;
  const list = topics.get(event.stream_id);
  if (!list) return topics;
  const rest = list.filter((t) => !sameTopic(t.name, event.orig_subject!));
  return rest.length === list.length ? topics : new Map(topics).set(event.stream_id, rest);
}
