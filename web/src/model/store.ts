/**
 * The client state of one signed-in person (Zulip's client stores; the
 * `PerAccountStore` of zulip-flutter): built from `POST /register`
 * (https://zulip.com/api/register-queue) and changed by each event of the
 * queue through {@link applyEvent}, one switch over event types. Immutable:
 * each event returns a new state sharing what did not change.
 */
import type { ParamValue } from "../api/client.js";
import type { ServerEvent, StreamWireObject, SubscriptionWireObject, WireUser } from "./types.js";
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
  type UnreadState,
} from "./unread.js";
import { applyOrganizationEvent, ORGANIZATION_EVENT_TYPES } from "./organization.js";
import { applyTypingEvent, dmTypingKey, streamTypingKey, type TypingState } from "./typing.js";
import { applyChannelEvent, channelsFromRegister, type ChannelState } from "./channels.js";
import { applyScheduledEvent, scheduledFromRegister, type ScheduledState } from "./scheduled.js";
import { applyDraftEvent, draftsFromRegister, type DraftState } from "./drafts.js";
import { applyRealmEmojiEvent, realmEmojiFromRegister, type RealmEmoji } from "./realm-emoji.js";
import { applyUserGroupEvent, userGroupsFromRegister, type UserGroup } from "./user-groups.js";
import { applyPeopleEvent, peopleFromRegister, withProfileValue, type PeopleState } from "./people.js";
import { dropMovedTopic } from "./topics.js";
import { applyPersonalEvent, personalFromRegister, PERSONAL_EVENT_TYPES, PERSONAL_FETCH_ONLY_TYPES, type PersonalState } from "./personal.js";

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
    fetch_event_types: [...EVENT_TYPES, ...PERSONAL_FETCH_ONLY_TYPES],
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

/** A stream as the app keeps it. */
export type StreamInfo = Pick<StreamWireObject, "stream_id" | "name" | "description" | "invite_only">;

/** A subscribed stream as the sidebar shows it. */
export type Subscription = Pick<
  SubscriptionWireObject,
  "stream_id" | "name" | "description" | "color" | "is_muted" | "pin_to_top" | "invite_only"
> &
  Partial<Pick<SubscriptionWireObject, "desktop_notifications" | "audible_notifications" | "wildcard_mentions_notify">>;

/** A topic of a stream (`GET /users/me/{stream_id}/topics`): its name and newest message ID. */
export interface Topic {
  name: string;
  max_id: number;
}

/** A person's presence: UNIX seconds of the last active and last connected moments. */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** The user settings the app reads. */
export interface UserSettings {
  enter_sends: boolean;
  twenty_four_hour_time: boolean;
}

/** The whole client state. */
export interface ChatState {
  queueId: string;
  lastEventId: number;
  me: { user_id: number; email: string; full_name: string };
  realm: { name: string; presenceDisabled: boolean };
  users: ReadonlyMap<number, WireUser>;
  streams: ReadonlyMap<number, StreamInfo>;
  subscriptions: ReadonlyMap<number, Subscription>;
  /** Topics per stream, newest first; a stream is absent until its topics are fetched. */
  topics: ReadonlyMap<number, Topic[]>;
  /** Visibility policies by `${stream_id}\0${topic lowercased}` (1 muted, 2 unmuted, 3 followed). */
  userTopics: ReadonlyMap<string, number>;
  presence: ReadonlyMap<number, Presence>;
  unread: UnreadState;
  starred: ReadonlySet<number>;
  /** Direct-message conversations by key, with their newest message ID. */
  recentConversations: ReadonlyMap<string, number>;
  typing: TypingState;
  settings: UserSettings;
  /**
   * The organization's settings as register sends them, by their register names
   * (`realm_name`, `realm_waiting_period_threshold`, `max_file_upload_size_mib`, …),
   * kept current by `realm` events. The settings overlays read them.
   */
  realmSettings: Readonly<Record<string, unknown>>;
  /** Every one of the reader's settings (register's `user_settings`), kept current by `user_settings` events. */
  userSettings: Readonly<Record<string, unknown>>;
  /** Streams and subscriptions with all their settings, and fetched subscriber lists (channel settings); absent in hand-built states. */
  channels?: ChannelState;
  /** The reader's scheduled messages (register's `scheduled_messages`, kept by `scheduled_messages` events). */
  scheduled: ScheduledState;
  /** The reader's drafts (register's `drafts`, kept by `drafts` events). */
  drafts: DraftState;
  /** The organization's custom emoji by ID (register's `realm_emoji`, kept by `realm_emoji` events). */
  realmEmoji: ReadonlyMap<string, RealmEmoji>;
  /** The organization's user groups by ID (register's `realm_user_groups`, kept by `user_group` events). */
  userGroups: ReadonlyMap<number, UserGroup>;
  /** Statuses, muted users and custom profile fields (people.ts). */
  people: PeopleState;
  /** Alert words, muted users, own bots, custom profile fields, webhook integrations (model/personal.ts). */
  personal: PersonalState;
}

/** Register fields kept in {@link ChatState.realmSettings} besides those named `realm_*`. */
const REALM_FIELDS = new Set(["max_file_upload_size_mib", "max_message_length", "max_topic_length", "max_stream_name_length", "max_stream_description_length", "server_presence_ping_interval_seconds", "server_presence_offline_threshold_seconds", "server_typing_started_expiry_period_milliseconds", "server_typing_stopped_wait_period_milliseconds", "server_typing_started_wait_period_milliseconds", "zulip_feature_level", "zulip_version", "upgrade_text_for_wide_organization_logo", "password_min_length", "password_min_guesses", "custom_profile_fields"]);

/** The organization's settings of a register answer (see {@link ChatState.realmSettings}). */
function realmSettingsFromRegister(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith("realm_") && k !== "realm_users" || REALM_FIELDS.has(k)));
}

type RegisterPresence = Record<string, Presence | { aggregated?: { status: string; timestamp: number } }>;

function policyKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.toLowerCase()}`;
}

/** The subset of a subscription the state keeps. */
function toSubscription(s: SubscriptionWireObject): Subscription {
  const { stream_id, name, description, color, is_muted, pin_to_top, invite_only } = s;
  const { desktop_notifications, audible_notifications, wildcard_mentions_notify } = s;
  return { stream_id, name, description, color, is_muted, pin_to_top, invite_only, desktop_notifications, audible_notifications, wildcard_mentions_notify };
}

/** Presence from register's `presences` (modern `{active_timestamp, idle_timestamp}` or legacy `aggregated`), keyed by user ID. */
function presenceFromRegister(raw: RegisterPresence): Map<number, Presence> {
  const out = new Map<number, Presence>();
  for (const [key, value] of Object.entries(raw)) {
    const id = Number(key);
    if (!Number.isInteger(id)) continue;
    if ("active_timestamp" in value) out.set(id, { active_timestamp: value.active_timestamp, idle_timestamp: value.idle_timestamp });
    else if (value.aggregated) {
      const t = value.aggregated.timestamp;
      out.set(id, { active_timestamp: value.aggregated.status === "active" ? t : 0, idle_timestamp: t });
    }
  }
  return out;
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

/**
 * Merges the organization's presence as `POST /users/me/presence` answers it
 * with `slim_presence` (https://zulip.com/api/update-presence): `presences`
 * keyed by user ID, each `{active_timestamp, idle_timestamp}` in UNIX seconds
 * (or the legacy `aggregated` form). A timestamp never moves back.
 */
export function applyPresences(state: ChatState, raw: Record<string, unknown>): ChatState {
  const fresh = presenceFromRegister(raw as RegisterPresence);
  if (fresh.size === 0) return state;
  const presence = new Map(state.presence);
  for (const [id, p] of fresh) {
    const old = presence.get(id);
    presence.set(id, {
      active_timestamp: Math.max(p.active_timestamp, old?.active_timestamp ?? 0),
      idle_timestamp: Math.max(p.idle_timestamp, old?.idle_timestamp ?? 0),
    });
  }
  return { ...state, presence };
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

/**
 * A `realm` event (https://zulip.com/api/get-events#realm-update and
 * `#realm-update_dict`): `update` sets `realm_<property>`; `update_dict` with
 * any `property` sets `realm_<key>` for each key of `data` (`default`'s settings;
 * `icon`'s `icon_url` → `realm_icon_url`, `logo`'s `logo_url` → `realm_logo_url`).
 */
function applyRealmEvent(s: ChatState, event: Extract<ServerEvent, { type: "realm" }>): ChatState {
  const e = event as { op: string; property?: string; value?: unknown; data?: Record<string, unknown> };
  if (e.op === "update" && e.property) {
    s.realmSettings = { ...s.realmSettings, [`realm_${e.property}`]: e.value };
    if (e.property === "name") s.realm = { ...s.realm, name: String(e.value) };
  } else if (e.op === "update_dict" && e.data) {
    s.realmSettings = { ...s.realmSettings, ...Object.fromEntries(Object.entries(e.data).map(([k, v]) => [`realm_${k}`, v])) };
    if (typeof e.data.name === "string") s.realm = { ...s.realm, name: e.data.name };
  }
  return s;
}

/**
 * A positive duration the server announced at register (`server_*` fields, in
 * the unit their names say), or undefined when absent or malformed.
 */
export function serverMs(state: Pick<ChatState, "realmSettings">, field: string): number | undefined {
  const v = state.realmSettings[field];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** The typing key of a message's conversation (as {@link applyEvent} files typing notices). */
export function typingKeyOf(m: Pick<Message, "type" | "stream_id" | "subject" | "display_recipient" | "sender_id">, myUserId: number): string {
  return m.type === "stream" && m.stream_id !== undefined
    ? streamTypingKey(m.stream_id, m.subject)
    : dmTypingKey(conversationKey(messageUserIds(m), myUserId));
}

function applySubscription(s: ChatState, event: Extract<ServerEvent, { type: "subscription" }>): ChatState {
  const subscriptions = new Map(s.subscriptions);
  switch (event.op) {
    case "add":
      for (const sub of event.subscriptions) subscriptions.set(sub.stream_id, toSubscription(sub as SubscriptionWireObject));
      {
        const streams = new Map(s.streams);
        for (const { stream_id, name, description, invite_only } of event.subscriptions) {
          streams.set(stream_id, { stream_id, name, description, invite_only });
        }
        s.streams = streams;
      }
      break;
    case "remove":
      for (const sub of event.subscriptions) subscriptions.delete(sub.stream_id);
      break;
    case "update": {
      const old = subscriptions.get(event.stream_id);
      if (!old) return s;
      if (event.property === "in_home_view") subscriptions.set(event.stream_id, { ...old, is_muted: event.value !== true });
      else if (["is_muted", "pin_to_top", "color", "name", "description", "desktop_notifications", "audible_notifications", "wildcard_mentions_notify"].includes(event.property)) {
        subscriptions.set(event.stream_id, { ...old, [event.property]: event.value });
      }
      break;
    }
    default:
      // peer_add / peer_remove change subscriber lists, which the app does not keep.
      return s;
  }
  s.subscriptions = subscriptions;
  return s;
}
