/**
 * The shape of the client state (Zulip's client stores; the
 * `PerAccountStore` of zulip-flutter): what `POST /register` builds and each
 * event changes (store.ts builds and changes it; the area modules own their parts).
 */
import type { ChannelState } from "./channels.js";
import type { DraftState } from "./drafts.js";
import type { PeopleState } from "./people.js";
import type { PersonalState } from "./personal.js";
import type { RealmEmoji } from "./realm-emoji.js";
import type { ScheduledState } from "./scheduled.js";
import type { StreamWireObject, SubscriptionWireObject, WireUser } from "./types.js";
import type { TypingState } from "./typing.js";
import type { UnreadState } from "./unread.js";
import type { UserGroup } from "./user-groups.js";

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
