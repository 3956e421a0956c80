import { effectiveUserSettings } from "./user-settings.js";

/**
 * Who is notified of a message, and why (Zulip's `UserMessageNotificationsData`
 * in `zerver/lib/notification_data.py`, with the sets `get_recipient_info`
 * computes in `zerver/actions/message_send.py`): per recipient, from the
 * row's flags, the recipient's personal settings, their subscription's
 * overrides and the topic's visibility policy, which of the email (and,
 * for the mobile push work that follows, push) triggers apply. Pure: the
 * `message_notifications` job (`shared/actions/notifications/`) reads the
 * records and asks this module; idleness (presence) is its own input.
 *
 * Help pages: https://zulip.com/help/email-notifications,
 * https://zulip.com/help/dm-mention-alert-notifications (alert words count
 * with DMs and mentions), https://zulip.com/help/channel-notifications,
 * https://zulip.com/help/follow-a-topic.
 */

/** Zulip's visibility policies of a topic (https://zulip.com/api/update-user-topic; `queries/muting/muting.ts` has the same, a layer above). */
const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/**
 * Why a message notifies a user (Zulip's `NotificationTriggers` values, plus
 * `alert_word`: the help groups alert words with DMs and mentions, which
 * Zulip's server leaves to desktop notifications).
 */
export type NotificationTrigger =
  | "private_message"
  | "mentioned"
  | "alert_word"
  | "topic_wildcard_mentioned_in_followed_topic"
  | "stream_wildcard_mentioned_in_followed_topic"
  | "topic_wildcard_mentioned"
  | "stream_wildcard_mentioned"
  | "followed_topic_email_notify"
  | "stream_email_notify"
  | "followed_topic_push_notify"
  | "stream_push_notify";

/** The parts of a user record the decision reads. */
export interface NotificationRecipientUser {
  user_id: number;
  is_active: boolean;
  is_bot: boolean;
  /** Stored personal settings (differences from the defaults). */
  settings: Record<string, unknown>;
}

/** The parts of a subscription the decision reads (stream messages; null: inherit the personal setting). */
export interface NotificationSubscription {
  is_muted: boolean;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** One recipient of a message as the decision sees it. */
export interface NotificationRecipient {
  /** Stored UserMessage flags (`mentioned`, `stream_wildcard_mentioned`, `has_alert_word`, `read`, …). */
  flags: readonly string[];
  user: NotificationRecipientUser;
  /** The recipient's subscription, for stream messages; undefined for direct messages (or an unsubscribed mentioned user). */
  subscription?: NotificationSubscription;
  /** The recipient's policy for the message's topic (0 inherit, 1 muted, 2 unmuted, 3 followed); stream messages. @default INHERIT */
  visibilityPolicy?: number;
}

/** The message side of the decision. */
export interface NotificationMessage {
  /** The sender (Zulip's `acting_user_id`): never notified of their own message. */
  senderId: number;
  /** A direct message (1:1 or group). */
  isPrivate: boolean;
}

/**
 * Which notifications one message may give one user, before idleness
 * (Zulip's `UserMessageNotificationsData`): each field says the trigger
 * applies by flags and settings. {@link emailNotificationTrigger} and
 * {@link pushNotificationTrigger} pick the most salient one.
 */
export interface UserMessageNotificationsData {
  userId: number;
  /** Nobody is notified of their own message, a bot, a deactivated user, or one who muted the sender (the row is read). */
  triviallyNot: boolean;
  dmEmailNotify: boolean;
  mentionEmailNotify: boolean;
  alertWordEmailNotify: boolean;
  topicWildcardMentionEmailNotify: boolean;
  streamWildcardMentionEmailNotify: boolean;
  topicWildcardMentionInFollowedTopicEmailNotify: boolean;
  streamWildcardMentionInFollowedTopicEmailNotify: boolean;
  followedTopicEmailNotify: boolean;
  streamEmailNotify: boolean;
  dmPushNotify: boolean;
  mentionPushNotify: boolean;
  alertWordPushNotify: boolean;
  topicWildcardMentionPushNotify: boolean;
  streamWildcardMentionPushNotify: boolean;
  topicWildcardMentionInFollowedTopicPushNotify: boolean;
  streamWildcardMentionInFollowedTopicPushNotify: boolean;
  followedTopicPushNotify: boolean;
  streamPushNotify: boolean;
  /** `enable_online_push_notifications`: push even while active. */
  onlinePushEnabled: boolean;
}

/**
 * Zulip's `user_allows_notifications_in_StreamTopic`: the topic's policy
 * first (muted topic: no; unmuted topic in a muted stream: yes), then the
 * stream's own setting, then the personal one.
 */
export function userAllowsNotificationsInStreamTopic(
  streamMuted: boolean,
  visibilityPolicy: number,
  streamSetting: boolean | null | undefined,
  personalSetting: boolean,
): boolean {
  if (streamMuted && visibilityPolicy !== VisibilityPolicy.UNMUTED) return false;
  if (visibilityPolicy === VisibilityPolicy.MUTED) return false;
  if (streamSetting !== null && streamSetting !== undefined) return streamSetting;
  return personalSetting;
}

const NONE: Omit<UserMessageNotificationsData, "userId" | "triviallyNot"> = {
  dmEmailNotify: false,
  mentionEmailNotify: false,
  alertWordEmailNotify: false,
  topicWildcardMentionEmailNotify: false,
  streamWildcardMentionEmailNotify: false,
  topicWildcardMentionInFollowedTopicEmailNotify: false,
  streamWildcardMentionInFollowedTopicEmailNotify: false,
  followedTopicEmailNotify: false,
  streamEmailNotify: false,
  dmPushNotify: false,
  mentionPushNotify: false,
  alertWordPushNotify: false,
  topicWildcardMentionPushNotify: false,
  streamWildcardMentionPushNotify: false,
  topicWildcardMentionInFollowedTopicPushNotify: false,
  streamWildcardMentionInFollowedTopicPushNotify: false,
  followedTopicPushNotify: false,
  streamPushNotify: false,
  onlinePushEnabled: false,
};

/**
 * The notifications data of one recipient (Zulip's
 * `UserMessageNotificationsData.from_user_id_sets`).
 *
 * - Direct messages and personal (or group) mentions and alert words obey
 *   `enable_offline_email_notifications` / `enable_offline_push_notifications`
 *   only, even in muted streams and topics (the help's "unlike personal
 *   mentions").
 * - Wildcard mentions (`@all`, `@topic`) obey the subscription's or personal
 *   `wildcard_mentions_notify` through the muting hierarchy, or, in a
 *   followed topic, `enable_followed_topic_wildcard_mentions_notify`; and
 *   the DM/mention setting besides.
 * - Every message of a followed topic: `enable_followed_topic_email_notifications`.
 * - Every message of a stream: the subscription's `email_notifications`,
 *   else `enable_stream_email_notifications`, through the muting hierarchy.
 */
export function userMessageNotificationsData(
  message: NotificationMessage,
  recipient: NotificationRecipient,
): UserMessageNotificationsData {
  const { user, flags } = recipient;
  const userId = user.user_id;
  const triviallyNot = userId === message.senderId || user.is_bot || !user.is_active || flags.includes("read");
  if (triviallyNot) return { userId, triviallyNot, ...NONE };
  const s = effectiveUserSettings(user.settings);
  const emailOn = s.enable_offline_email_notifications === true;
  const pushOn = s.enable_offline_push_notifications === true;
  const mentioned = flags.includes("mentioned");
  const alerted = flags.includes("has_alert_word");
  const streamWildcard = flags.includes("stream_wildcard_mentioned");
  const topicWildcard = flags.includes("topic_wildcard_mentioned");

  if (message.isPrivate) {
    return {
      ...NONE,
      userId,
      triviallyNot,
      dmEmailNotify: emailOn,
      dmPushNotify: pushOn,
      onlinePushEnabled: s.enable_online_push_notifications === true,
    };
  }

  const sub = recipient.subscription;
  const policy = recipient.visibilityPolicy ?? VisibilityPolicy.INHERIT;
  const streamMuted = sub?.is_muted === true;
  const followed = policy === VisibilityPolicy.FOLLOWED;
  // Wildcards reach subscribers only (the flags say so too); muting silences them.
  const wildcardsNotify =
    sub !== undefined &&
    userAllowsNotificationsInStreamTopic(streamMuted, policy, sub.wildcard_mentions_notify, s.wildcard_mentions_notify === true);
  const followedWildcardsNotify = followed && s.enable_followed_topic_wildcard_mentions_notify === true;
  const streamEmail =
    sub !== undefined &&
    userAllowsNotificationsInStreamTopic(streamMuted, policy, sub.email_notifications, s.enable_stream_email_notifications === true);
  const streamPush =
    sub !== undefined &&
    userAllowsNotificationsInStreamTopic(streamMuted, policy, sub.push_notifications, s.enable_stream_push_notifications === true);

  return {
    userId,
    triviallyNot,
    dmEmailNotify: false,
    mentionEmailNotify: emailOn && mentioned,
    alertWordEmailNotify: emailOn && alerted,
    topicWildcardMentionEmailNotify: emailOn && topicWildcard && wildcardsNotify,
    streamWildcardMentionEmailNotify: emailOn && streamWildcard && wildcardsNotify,
    topicWildcardMentionInFollowedTopicEmailNotify: emailOn && topicWildcard && followedWildcardsNotify,
    streamWildcardMentionInFollowedTopicEmailNotify: emailOn && streamWildcard && followedWildcardsNotify,
    followedTopicEmailNotify: followed && s.enable_followed_topic_email_notifications === true,
    streamEmailNotify: streamEmail,
    dmPushNotify: false,
    mentionPushNotify: pushOn && mentioned,
    alertWordPushNotify: pushOn && alerted,
    topicWildcardMentionPushNotify: pushOn && topicWildcard && wildcardsNotify,
    streamWildcardMentionPushNotify: pushOn && streamWildcard && wildcardsNotify,
    topicWildcardMentionInFollowedTopicPushNotify: pushOn && topicWildcard && followedWildcardsNotify,
    streamWildcardMentionInFollowedTopicPushNotify: pushOn && streamWildcard && followedWildcardsNotify,
    followedTopicPushNotify: followed && s.enable_followed_topic_push_notifications === true,
    streamPushNotify: streamPush,
    onlinePushEnabled: s.enable_online_push_notifications === true,
  };
}

/**
 * The email trigger of one recipient (Zulip's `get_email_notification_trigger`),
 * most salient first; undefined when no email applies. Emails go to idle
 * users only (the caller tells, see `shared/actions/notifications/`).
 * @param idle the recipient is not active right now (`true` asks "would it, if they were idle?")
 */
export function emailNotificationTrigger(data: UserMessageNotificationsData, idle: boolean): NotificationTrigger | undefined {
  if (!idle || data.triviallyNot) return undefined;
  if (data.dmEmailNotify) return "private_message";
  if (data.mentionEmailNotify) return "mentioned";
  if (data.alertWordEmailNotify) return "alert_word";
  if (data.topicWildcardMentionInFollowedTopicEmailNotify) return "topic_wildcard_mentioned_in_followed_topic";
  if (data.streamWildcardMentionInFollowedTopicEmailNotify) return "stream_wildcard_mentioned_in_followed_topic";
  if (data.topicWildcardMentionEmailNotify) return "topic_wildcard_mentioned";
  if (data.streamWildcardMentionEmailNotify) return "stream_wildcard_mentioned";
  if (data.followedTopicEmailNotify) return "followed_topic_email_notify";
  if (data.streamEmailNotify) return "stream_email_notify";
  return undefined;
}

/**
 * The push trigger of one recipient (Zulip's `get_push_notification_trigger`),
 * for the mobile push work: active users get pushes only with
 * `enable_online_push_notifications`.
 */
export function pushNotificationTrigger(data: UserMessageNotificationsData, idle: boolean): NotificationTrigger | undefined {
  if ((!idle && !data.onlinePushEnabled) || data.triviallyNot) return undefined;
  if (data.dmPushNotify) return "private_message";
  if (data.mentionPushNotify) return "mentioned";
  if (data.alertWordPushNotify) return "alert_word";
  if (data.topicWildcardMentionInFollowedTopicPushNotify) return "topic_wildcard_mentioned_in_followed_topic";
  if (data.streamWildcardMentionInFollowedTopicPushNotify) return "stream_wildcard_mentioned_in_followed_topic";
  if (data.topicWildcardMentionPushNotify) return "topic_wildcard_mentioned";
  if (data.streamWildcardMentionPushNotify) return "stream_wildcard_mentioned";
  if (data.followedTopicPushNotify) return "followed_topic_push_notify";
  if (data.streamPushNotify) return "stream_push_notify";
  return undefined;
}

/**
 * Zulip's presence half of idleness (`filter_presence_idle_user_ids`): no
 * `active` presence ping within `thresholdSeconds` (a missing presence is idle).
 */
export function isPresenceIdle(lastActiveTime: number | undefined, nowSeconds: number, thresholdSeconds: number): boolean {
  return lastActiveTime === undefined || lastActiveTime < nowSeconds - thresholdSeconds;
}
