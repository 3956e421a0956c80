import type { Deps } from "../../deps.js";
import type { ClientCapabilities } from "../../data/records/event-queue.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserRecord } from "../../data/records/user.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";

import { listRealmStreams } from "../../data/streams.js";
import { listUserSubscriptions } from "../../data/subscriptions.js";
import { listUserTopics } from "../../data/user-topics.js";
import { isSystemBot, listRealmUsers } from "../../data/users.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail } from "../../domain/email.js";
import { nextOnboardingSteps } from "../../domain/onboarding-steps.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { realmUserStatuses } from "../../wire/user-status.js";
import { botToWire } from "../../wire/bot.js";
import { fetchAlertWords } from "../users/alert-words.js";
import { customProfileFieldsInitialState } from "../users/custom-profile-fields.js";
import { draftsInitialState } from "../drafts/user-drafts.js";
import { scheduledMessagesInitialState } from "../scheduled-messages/user-scheduled-messages.js";
import { realmUserGroupsInitialState } from "../user-groups/user-groups.js";
import { EMPTY_INITIAL_STATE } from "./empty.js";
import { incomingWebhookBotsInitialState } from "./incoming-webhook-bots.js";
import {
  maxMessageIdInitialState,
  recentPrivateConversationsInitialState,
  starredMessagesInitialState,
  unreadMessagesInitialState,
} from "./messages.js";
import { mutedUsersInitialState, userTopicsInitialState } from "./muting.js";
import { fetchRealmPresence } from "./presence.js";
import { realmInitialState } from "./realm.js";
import { realmPlaygroundsInitialState } from "./playgrounds.js";
import { realmLinkifiersInitialState } from "./linkifiers.js";
import { realmEmojiState } from "../realm-emoji.js";
import { realmUserInitialState, STREAM_CREATION_SETTINGS } from "./realm-user.js";
import { realmSettingGroupMembership } from "../../access/user-group.js";
import { isFullMember } from "../../domain/realm-settings.js";
import { defaultStreamsInitialState, streamInitialState, subscriptionInitialState } from "./subscription.js";
import {
  legacySettingsInitialState,
  ownSettings,
  realmUserSettingsDefaultsInitialState,
  userSettingsInitialState,
} from "./user-settings.js";

/**
 * Every fetch type this server knows (Zulip's `fetch_initial_state_data`
 * `want(...)` names, plus `hotspots`, which https://zulip.com/api/register-queue
 * still lists). Others are ignored, as that page requires ("Unsupported
 * event types are ignored").
 */
export const FETCH_EVENT_TYPES = [
  "alert_words",
  "custom_profile_fields",
  "default_stream_groups",
  "default_streams",
  "drafts",
  "giphy",
  "hotspots",
  "message",
  "muted_topics",
  "muted_users",
  "onboarding_steps",
  "presence",
  "realm",
  "realm_bot",
  "realm_domains",
  "realm_embedded_bots",
  "realm_emoji",
  "realm_filters",
  "realm_incoming_webhook_bots",
  "realm_linkifiers",
  "realm_playgrounds",
  "realm_user",
  "realm_user_groups",
  "realm_user_settings_defaults",
  "recent_private_conversations",
  "scheduled_messages",
  "starred_messages",
  "stop_words",
  "stream",
  "subscription",
  "update_display_settings",
  "update_global_notifications",
  "update_message_flags",
  "user_settings",
  "user_status",
  "user_topic",
  "video_calls",
] as const;

/** What `POST /register` asked for, as the initial state needs it. */
export interface InitialStateOptions {
  /** Types whose initial data to fetch; null for all. */
  fetchEventTypes: string[] | null;
  clientGravatar: boolean;
  slimPresence: boolean;
  includeSubscribers: boolean;
  capabilities: ClientCapabilities;
  /** Reported as `event_queue_longpoll_timeout_seconds`. */
  longpollTimeoutSeconds: number;
}

/**
 * The initial state of `POST /register` for the requested fetch types
 * (https://zulip.com/api/register-queue; Zulip's `fetch_initial_state_data`;
 * one module per fetch type in this folder). Independent reads run in
 * parallel and shared reads (the realm's users, its streams, the caller's
 * subscriptions) happen once:
 * at most one round of Queries for users, streams and subscriptions, then
 * the per-type reads (presence, unread, starred, recent conversations,
 * subscriber lists) in parallel.
 */
export async function fetchInitialState(
  deps: Deps,
  realm: RealmRecord,
  me: UserRecord,
  opts: InitialStateOptions,
): Promise<Record<string, unknown>> {
  const requested = opts.fetchEventTypes === null ? null : new Set(opts.fetchEventTypes);
  const want = (type: string) => requested === null || requested.has(type);

  let users: Promise<UserRecord[]> | undefined;
  let streams: Promise<StreamRecord[]> | undefined;
  let subs: Promise<SubscriptionRecord[]> | undefined;
  // Every user record, system bots included (realm_user needs them for cross_realm_bots);
  // loadMembers() drops them for everything that lists the realm's own users.
  const loadUsers = () => (users ??= listRealmUsers(deps, realm.id));
  const loadMembers = () => loadUsers().then((all) => all.filter((u) => !isSystemBot(u)));
  const loadStreams = () => (streams ??= listRealmStreams(deps, realm.id));
  const loadSubs = () => (subs ??= listUserSubscriptions(deps, me.user_id));
  let topicPolicies: Promise<UserTopicRecord[]> | undefined;
  const loadUserTopics = () => (topicPolicies ??= listUserTopics(deps, me.user_id));

  const parts: (Record<string, unknown> | Promise<Record<string, unknown>>)[] = [];
  for (const [type, build] of Object.entries(EMPTY_INITIAL_STATE)) {
    if (!want(type)) continue;
    parts.push(build());
  }
  if (want("custom_profile_fields")) parts.push(customProfileFieldsInitialState(deps, realm.id));
  if (want("alert_words")) parts.push(fetchAlertWords(deps, realm, me.user_id).then((words) => ({ alert_words: words })));
  if (want("realm")) parts.push(realmInitialState(realm, deps.config, opts.longpollTimeoutSeconds));
  if (want("realm_user")) {
    parts.push(
      Promise.all([loadUsers(), realmSettingGroupMembership(deps, realm, me, STREAM_CREATION_SETTINGS)]).then(([all, isMember]) =>
        realmUserInitialState(realm, me, all, deps.config, {
          clientGravatar: opts.clientGravatar,
          isMember,
          fullMember: isFullMember(realm, me, Math.floor(deps.clock.now() / 1000)),
        }),
      ),
    );
  }
  if (want("realm_bot")) {
    parts.push(
      Promise.all([loadMembers(), loadStreams()]).then(([all, allStreams]) => {
        const byId = new Map(allStreams.map((s) => [s.stream_id, s]));
        return {
          realm_bots: all
            .filter((u) => u.is_bot && (isRealmAdmin(me) || u.bot_owner_id === me.user_id))
            .map((b) => botToWire(b, realm, deps.config, byId)),
        };
      }),
    );
  }
  if (want("realm_incoming_webhook_bots")) parts.push(incomingWebhookBotsInitialState());
  if (want("realm_user_groups")) {
    parts.push(loadMembers().then((all) => realmUserGroupsInitialState(deps, realm, all.filter((u) => u.is_active))));
  }
  if (want("onboarding_steps")) parts.push({ onboarding_steps: nextOnboardingSteps(me.onboarding_steps_seen) });
  if (want("user_status")) parts.push(loadMembers().then((all) => ({ user_status: realmUserStatuses(all, realm) })));
  if (want("user_settings")) parts.push(userSettingsInitialState(realm, me));
  if (!opts.capabilities.user_settings_object && (want("update_display_settings") || want("update_global_notifications"))) {
    parts.push(
      legacySettingsInitialState(realm, me, {
        display: want("update_display_settings"),
        notifications: want("update_global_notifications"),
      }),
    );
  }
  if (want("realm_user_settings_defaults")) parts.push(realmUserSettingsDefaultsInitialState(realm));
  if (want("realm_playgrounds")) parts.push(realmPlaygroundsInitialState(deps, realm.id));
  if (want("realm_linkifiers")) parts.push(realmLinkifiersInitialState(deps, realm.id, opts.capabilities.linkifier_url_template));
  if (want("realm_emoji")) parts.push(realmEmojiState(deps, realm.id).then((realm_emoji) => ({ realm_emoji })));
  if (want("subscription")) {
    parts.push(
      Promise.all([loadStreams(), loadSubs()]).then(([allStreams, allSubs]) =>
        subscriptionInitialState(deps, me, allStreams, allSubs, ownSettings(realm, me), {
          includeSubscribers: opts.includeSubscribers,
          notificationSettingsNull: opts.capabilities.notification_settings_null,
          loadUsers,
        }),
      ),
    );
  }
  if (want("stream")) {
    parts.push(Promise.all([loadStreams(), loadSubs()]).then(([s, u]) => streamInitialState(me, s, u)));
  }
  if (want("default_streams")) parts.push(loadStreams().then((s) => defaultStreamsInitialState(s)));
  if (want("message")) parts.push(maxMessageIdInitialState(deps, me.user_id));
  if (want("message") && want("update_message_flags")) {
    parts.push(
      Promise.all([loadStreams(), loadSubs(), loadUserTopics()]).then(([s, subscriptions, userTopics]) =>
        unreadMessagesInitialState(deps, me.user_id, s, { subscriptions, userTopics }),
      ),
    );
  }
  if (want("starred_messages")) parts.push(starredMessagesInitialState(deps, me.user_id));
  if (want("recent_private_conversations")) parts.push(recentPrivateConversationsInitialState(deps, me.user_id));
  if (want("drafts")) parts.push(draftsInitialState(deps, realm, me));
  if (want("scheduled_messages")) parts.push(scheduledMessagesInitialState(deps, me));
  if (want("presence")) {
    parts.push(
      loadMembers().then((all) =>
        fetchRealmPresence(deps, realm, { format: opts.slimPresence ? "modern" : "legacy", users: all }),
      ),
    );
  }
  if (want("muted_users")) parts.push(mutedUsersInitialState(deps, me.user_id));
  // Zulip sends muted_topics only when user_topic is not explicitly asked for.
  const mutedTopics = want("muted_topics") && !(requested !== null && requested.has("user_topic"));
  if (want("user_topic") || mutedTopics) {
    parts.push(userTopicsInitialState(deps, loadUserTopics(), loadStreams(), { userTopics: want("user_topic"), mutedTopics }));
  }
  const states = await Promise.all(parts);
  return Object.assign({}, ...states);
}
