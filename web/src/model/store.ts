/**
 * The client state of one signed-in person (Zulip's client stores; the
 * `PerAccountStore` of zulip-flutter): built from `POST /register`
 * (https://zulip.com/api/register-queue) and changed by each event of the
 * queue through {@link applyEvent}, one switch over event types. Immutable:
 * each event returns a new state sharing what did not change.
 */
import type { ParamValue } from "../api/client.js";
import type { ServerEvent, StreamWireObject, SubscriptionWireObject, WireUser } from "./types.js";
import type { ChatState, Presence, Topic, UserSettings } from "./state.js";
import { applyPresences, presenceFromRegister, type RegisterPresence } from "./presence.js";
import { applyRealmEvent, realmSettingsFromRegister, serverMs } from "./realm-settings.js";
import { applySubscription, toSubscription } from "./subscriptions.js";

import { conversationKey, messageUserIds, type Message } from "./types.js";
import type { MatchContext } from "./narrow.js";
import {
  EMPTY_UNREAD,
  unreadAddMessage,
  unreadFromRegister,
  unreadMove,
  unreadRemove,
  unreadRestore,
  type RegisterUnreads,
} from "./unread.js";
import { applyOrganizationEvent, ORGANIZATION_EVENT_TYPES } from "./organization.js";
import { INVITES_EVENT_TYPES } from "./invites.js";
import { applyTypingEvent, dmTypingKey, streamTypingKey } from "./typing.js";
import { applyChannelEvent, channelsFromRegister } from "./channels.js";
import { applyScheduledEvent, scheduledFromRegister } from "./scheduled.js";
import { applyDraftEvent, draftsFromRegister } from "./drafts.js";
import { applyRealmEmojiEvent, realmEmojiFromRegister } from "./realm-emoji.js";
import { applyUserGroupEvent, userGroupsFromRegister } from "./user-groups.js";
import { applyPeopleEvent, peopleFromRegister, withProfileValue } from "./people.js";
import { dropMovedTopic } from "./topics.js";
import { applyPersonalEvent, personalFromRegister, PERSONAL_EVENT_TYPES, PERSONAL_FETCH_ONLY_TYPES } from "./personal.js";

export type { ChatState, Presence, StreamInfo, Subscription, Topic, UserSettings } from "./state.js";
export { applyPresences, serverMs };

/**
 * The event types the app registers for; `fetch_event_types` is the same list.
 * The server delivers only these types, so every type {@link applyEvent} or the
 * message list handles must be here (edits, deletions and reactions included).
 */
export const EVENT_TYPES = [
  "message",
  "update_message",
  "delete_message",
  "reaction",
  "update_message_flags",
  "subscription",
  "stream",
  "realm_user",
  "presence",
  "typing",
  "user_settings",
  "realm",
  "user_topic",
  "starred_messages",
  "recent_private_conversations",
  "scheduled_messages",
  "drafts",
  "submessage",
  "realm_emoji",
  "user_group",
  "user_status",
  "muted_users",
  "custom_profile_fields",
  ...PERSONAL_EVENT_TYPES,
  ...ORGANIZATION_EVENT_TYPES,
  ...INVITES_EVENT_TYPES,
];

/**
 * The parameters of `POST /register` the app sends (https://zulip.com/api/register-queue):
 * HTML content, avatars from the server, presence keyed by user ID, and the
 * client capabilities the app handles.
 */
export function registerParams(): Record<string, ParamValue> {
  return {
    apply_markdown: true,
    client_gravatar: false,
    slim_presence: true,
    include_subscribers: false,
    event_types: EVENT_TYPES,
    // realm_user_groups: the server files user groups' initial state under that name, not under the
    // `user_group` event type (Zulip's fetch_initial_state_data); group mentions and group-valued
    // permissions (create_multiuse_invite_group) read it.
    fetch_event_types: [...EVENT_TYPES, ...PERSONAL_FETCH_ONLY_TYPES, "realm_user_groups"],
    // stream_typing_notifications: without it the server sends no typing events for stream topics.
    client_capabilities: {
      notification_settings_null: true,
      user_settings_object: true,
      bulk_message_deletion: true,
      stream_typing_notifications: true,
      // Linkifiers with URL templates (realm_linkifiers); without it the server sends none of their events.
      linkifier_url_template: true,
    },
  };
}

function policyKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.toLowerCase()}`;
}

/**
 * Builds the state from the answer of `POST /register` with {@link registerParams}.
 * Reads `queue_id`, `last_event_id`, `user_id`/`email`/`full_name`,
 * `realm_name`, `realm_users`, `streams`, `subscriptions`, `user_topics`,
 * `presences`, `unread_msgs`, `starred_messages`,
 * `recent_private_conversations` and `user_settings`; absent fields give empty state.
 */
export function stateFromRegister(r: Record<string, unknown>): ChatState {
  const me = { user_id: Number(r.user_id), email: String(r.email ?? ""), full_name: String(r.full_name ?? "") };
  const subs = (r.subscriptions as SubscriptionWireObject[] | undefined) ?? [];
  const streams = (r.streams as StreamWireObject[] | undefined) ?? subs;
  const userTopics = (r.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[] | undefined) ?? [];
  const settings = (r.user_settings as Partial<UserSettings> | undefined) ?? {};
  const recent = (r.recent_private_conversations as { user_ids: number[]; max_message_id: number }[] | undefined) ?? [];
  return {
    queueId: String(r.queue_id ?? ""),
    lastEventId: Number(r.last_event_id ?? -1),
    me,
    realm: { name: String(r.realm_name ?? ""), presenceDisabled: r.realm_presence_disabled === true },
    users: new Map(((r.realm_users as WireUser[] | undefined) ?? []).map((u) => [u.user_id, u])),
    streams: new Map(streams.map((s) => [s.stream_id, { stream_id: s.stream_id, name: s.name, description: s.description, invite_only: s.invite_only }])),
    subscriptions: new Map(subs.map((s) => [s.stream_id, toSubscription(s)])),
    topics: new Map(),
    userTopics: new Map(userTopics.map((t) => [policyKey(t.stream_id, t.topic_name), t.visibility_policy])),
    presence: presenceFromRegister((r.presences as RegisterPresence | undefined) ?? {}),
    unread: r.unread_msgs ? unreadFromRegister(r.unread_msgs as RegisterUnreads, me.user_id) : EMPTY_UNREAD,
    starred: new Set((r.starred_messages as number[] | undefined) ?? []),
    recentConversations: new Map(recent.map((c) => [conversationKey(c.user_ids, me.user_id), c.max_message_id])),
    typing: new Map(),
    settings: { enter_sends: settings.enter_sends ?? false, twenty_four_hour_time: settings.twenty_four_hour_time ?? false },
    realmSettings: realmSettingsFromRegister(r),
    userSettings: { ...settings },
    channels: channelsFromRegister(r),
    scheduled: scheduledFromRegister(r.scheduled_messages),
    drafts: draftsFromRegister(r.drafts),
    realmEmoji: realmEmojiFromRegister(r.realm_emoji),
    userGroups: userGroupsFromRegister(r.realm_user_groups),
    people: peopleFromRegister(r),
    personal: personalFromRegister(r),
  };
}

/** The reader's muting and identity, as narrow matching and unread counting take them. */
export function matchContext(state: ChatState): MatchContext {
  return {
    myUserId: state.me.user_id,
    isStreamMuted: (id) => state.subscriptions.get(id)?.is_muted ?? false,
    topicPolicy: (id, topic) => state.userTopics.get(policyKey(id, topic)) ?? 0,
  };
}

/** Stores the topics fetched by `GET /users/me/{stream_id}/topics` (`topics`: `{name, max_id}`), newest first. */
export function setTopics(state: ChatState, streamId: number, topics: Topic[]): ChatState {
  const sorted = [...topics].sort((a, b) => b.max_id - a.max_id);
  return { ...state, topics: new Map(state.topics).set(streamId, sorted) };
}

/** A topic got a message with ID `id` (or was renamed into): it moves to the top of its stream's list. */
function touchTopic(topics: ReadonlyMap<number, Topic[]>, streamId: number, name: string, id: number): ReadonlyMap<number, Topic[]> {
  const list = topics.get(streamId);
  if (!list) return topics;
  const old = list.find((t) => t.name.toLowerCase() === name.toLowerCase());
  const rest = list.filter((t) => t !== old);
  const entry = { name, max_id: Math.max(id, old?.max_id ?? 0) };
  return new Map(topics).set(streamId, [entry, ...rest].sort((a, b) => b.max_id - a.max_id));
}

/** Looks up loaded messages for events that need them (marking unread again). */
export type MessageLookup = (id: number) => Message | undefined;

/**
 * Applies one event (https://zulip.com/api/get-events) and records its `id`
 * as `lastEventId`. Handled: message, update_message, delete_message,
 * update_message_flags (read and starred), subscription (add, remove,
 * update, peer_add, peer_remove), stream (create, delete, update),
 * realm_user (add, update, remove), presence, typing, user_settings,
 * user_topic, heartbeat; others change nothing but the event ID.
 * `nowMs` (milliseconds) dates typing notices.
 */
export function applyEvent(state: ChatState, event: ServerEvent, nowMs: number, lookup: MessageLookup = () => undefined): ChatState {
  const s: ChatState = { ...state, lastEventId: Math.max(state.lastEventId, event.id) };
  const me = s.me.user_id;
  if (s.channels && (event.type === "stream" || event.type === "subscription")) s.channels = applyChannelEvent(s.channels, event, me);
  switch (event.type) {
    case "message": {
      const m: Message = { ...event.message, flags: event.flags };
      s.unread = unreadAddMessage(s.unread, m, event.flags, me);
      if (m.type === "stream" && m.stream_id !== undefined) s.topics = touchTopic(s.topics, m.stream_id, m.subject, m.id);
      else {
        const key = conversationKey(messageUserIds(m), me);
        s.recentConversations = new Map(s.recentConversations).set(key, Math.max(m.id, s.recentConversations.get(key) ?? 0));
      }
      if (event.flags.includes("starred")) s.starred = new Set(s.starred).add(m.id);
      // The sender stopped typing once the message is sent.
      s.typing = applyTypingEvent(s.typing, { op: "stop", senderId: m.sender_id, key: typingKeyOf(m, me) }, nowMs);
      return s;
    }
    case "update_message": {
      if (event.subject !== undefined || event.new_stream_id !== undefined) {
        s.unread = unreadMove(s.unread, event.message_ids, event.new_stream_id, event.subject);
        s.topics = dropMovedTopic(s.topics, event);
        const stream = event.new_stream_id ?? event.stream_id;
        const topic = event.subject ?? event.orig_subject;
        if (stream !== undefined && topic !== undefined) s.topics = touchTopic(s.topics, stream, topic, Math.max(...event.message_ids));
      }
      return s;
    }
    case "delete_message": {
      const ids = "message_ids" in event ? event.message_ids : [event.message_id];
      s.unread = unreadRemove(s.unread, ids);
      if (ids.some((id) => s.starred.has(id))) s.starred = new Set([...s.starred].filter((id) => !ids.includes(id)));
      return s;
    }
    case "update_message_flags": {
      if (event.flag === "read") {
        s.unread =
          event.op === "add"
            ? unreadRemove(s.unread, event.messages, event.all)
            : unreadRestore(s.unread, event.messages, event.op === "remove" ? event.message_details : undefined, lookup, me);
      } else if (event.flag === "starred") {
        const starred = new Set(s.starred);
        for (const id of event.messages) {
          if (event.op === "add") starred.add(id);
          else starred.delete(id);
        }
        if (event.op === "remove" && event.all) starred.clear();
        s.starred = starred;
      }
      return s;
    }
    case "subscription":
      return applySubscription(s, event);
    case "stream": {
      const streams = new Map(s.streams);
      if (event.op === "create") for (const st of event.streams) streams.set(st.stream_id, st);
      else if (event.op === "delete") {
        const subscriptions = new Map(s.subscriptions);
        for (const st of event.streams) {
          streams.delete(st.stream_id);
          subscriptions.delete(st.stream_id);
        }
        s.subscriptions = subscriptions;
      } else if (event.op === "update") {
        const old = streams.get(event.stream_id);
        if (old && (event.property === "name" || event.property === "description" || event.property === "invite_only")) {
          streams.set(event.stream_id, { ...old, [event.property]: event.value });
          const sub = s.subscriptions.get(event.stream_id);
          if (sub) s.subscriptions = new Map(s.subscriptions).set(event.stream_id, { ...sub, [event.property]: event.value });
        }
      }
      s.streams = streams;
      return s;
    }
    case "realm_user": {
      const users = new Map(s.users);
      if (event.op === "add") users.set(event.person.user_id, event.person as WireUser);
      else if (event.op === "remove") users.delete(event.person.user_id);
      else if (event.op === "update") {
        const old = users.get(event.person.user_id);
        if (old) {
          const { user_id: _id, ...change } = event.person as Record<string, unknown> & { user_id: number };
          if ("is_active" in change && change.is_active === false) users.delete(old.user_id);
          else if ("custom_profile_field" in event.person) users.set(old.user_id, withProfileValue(old, event.person.custom_profile_field));
          else users.set(old.user_id, { ...old, ...("new_email" in change ? { email: String(change.new_email) } : change) });
        }
      }
      s.users = users;
      if (event.op === "update" && event.person.user_id === me && "full_name" in event.person) {
        s.me = { ...s.me, full_name: event.person.full_name };
      }
      return s;
    }
    case "presence": {
      const website = Object.values(event.presence)[0];
      if (!website) return s;
      const old = s.presence.get(event.user_id) ?? { active_timestamp: 0, idle_timestamp: 0 };
      const next: Presence = {
        active_timestamp: website.status === "active" ? Math.max(old.active_timestamp, website.timestamp) : old.active_timestamp,
        idle_timestamp: Math.max(old.idle_timestamp, website.timestamp),
      };
      s.presence = new Map(s.presence).set(event.user_id, next);
      return s;
    }
    case "typing": {
      if (event.sender.user_id === me) return s;
      const key =
        event.message_type === "stream"
          ? streamTypingKey(event.stream_id, event.topic)
          : dmTypingKey(conversationKey([event.sender.user_id, ...event.recipients.map((r) => r.user_id)], me));
      s.typing = applyTypingEvent(s.typing, { op: event.op, senderId: event.sender.user_id, key }, nowMs, serverMs(s, "server_typing_started_expiry_period_milliseconds"));
      return s;
    }
    case "user_settings":
      if (event.op === "update") s.userSettings = { ...s.userSettings, [event.property]: event.value };
      if (event.op === "update" && (event.property === "enter_sends" || event.property === "twenty_four_hour_time")) {
        s.settings = { ...s.settings, [event.property]: event.value === true };
      }
      return s;
    case "realm":
      return applyRealmEvent(s, event);
    case "scheduled_messages":
      s.scheduled = applyScheduledEvent(s.scheduled, event);
      return s;
    case "drafts":
      s.drafts = applyDraftEvent(s.drafts, event);
      return s;
    case "realm_emoji":
      s.realmEmoji = applyRealmEmojiEvent(event);
      return s;
    case "user_group":
      s.userGroups = applyUserGroupEvent(s.userGroups, event);
      return s;
    case "alert_words":
    case "realm_bot":
      s.personal = applyPersonalEvent(s.personal, event);
      return s;
    case "user_topic":
      s.userTopics = new Map(s.userTopics).set(policyKey(event.stream_id, event.topic_name), event.visibility_policy);
      return s;
    case "user_status":
    case "muted_users":
    case "custom_profile_fields":
      s.people = applyPeopleEvent(s.people, event);
      return s;
    default:
      // The organization's lists (organization.ts); heartbeat and everything else change nothing.
      s.realmSettings = applyOrganizationEvent(s.realmSettings, event);
      return s;
  }
}

/** The typing key of a message's conversation (as {@link applyEvent} files typing notices). */
export function typingKeyOf(m: Pick<Message, "type" | "stream_id" | "subject" | "display_recipient" | "sender_id">, myUserId: number): string {
  return m.type === "stream" && m.stream_id !== undefined
    ? streamTypingKey(m.stream_id, m.subject)
    : dmTypingKey(conversationKey(messageUserIds(m), myUserId));
}
