import type { AttachmentRecord } from "../../data/records/attachment.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmEmojiRecord } from "../../data/records/realm-emoji.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserGroupRecord } from "../../data/records/user-group.js";
import type { UserRecord } from "../../data/records/user.js";

/**
 * Our records as rows of Zulip's export tables (the `zerver_*` lists of
 * `realm.json`, `messages-*.json` and `attachment.json` that Zulip's
 * `zerver/lib/export.py` writes): Zulip's table and field names, foreign
 * keys as IDs, times as UNIX seconds. Fields we do not have are left out;
 * ours that Zulip lacks ride along under their own names. `import.ts`
 * reads the same shapes back.
 */

/** A row of an export table. */
export type Row = Record<string, unknown>;

/** Zulip's `Recipient.STREAM`. */
export const RECIPIENT_STREAM = 2;

/** Zulip's `UserMessage.ALL_FLAGS`, in bit order: `flags_mask` bit i is flag i. */
export const USER_MESSAGE_FLAGS = [
  "read",
  "starred",
  "collapsed",
  "mentioned",
  "stream_wildcard_mentioned",
  "topic_wildcard_mentioned",
  "group_mentioned",
  "force_expand",
  "force_collapse",
  "has_alert_word",
  "historical",
  "is_private",
  "active_mobile_push_notification",
] as const;

/** Stored flag names → Zulip's `flags_mask`. */
export function flagsMask(flags: readonly string[]): number {
  let mask = 0;
  for (const flag of flags) {
    const bit = (USER_MESSAGE_FLAGS as readonly string[]).indexOf(flag);
    if (bit >= 0) mask |= 1 << bit;
  }
  return mask;
}

/** Zulip's `flags_mask` → flag names. */
export function flagsOfMask(mask: number): string[] {
  return USER_MESSAGE_FLAGS.filter((_flag, bit) => (mask & (1 << bit)) !== 0);
}

/** `zerver_realm`: the organization and its settings. */
export function realmRow(realm: RealmRecord): Row {
  return {
    id: realm.id,
    string_id: realm.string_id,
    name: realm.name,
    description: realm.description,
    date_created: realm.date_created,
    deactivated: realm.deactivated,
    ...realm.settings,
    user_settings_defaults: realm.user_settings_defaults,
  };
}

/**
 * `zerver_userprofile`: a user without its secrets — Zulip's export leaves
 * out `password` and `api_key`, and so do we (an import gives new keys and
 * unusable passwords).
 */
export function userRow(user: UserRecord): Row {
  return {
    id: user.user_id,
    realm: user.realm_id,
    email: user.delivery_email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    role: user.role,
    is_active: user.is_active,
    is_bot: user.is_bot,
    bot_type: user.bot_type,
    bot_owner: user.bot_owner_id,
    is_billing_admin: user.is_billing_admin,
    avatar_source: user.avatar_source,
    avatar_version: user.avatar_version,
    timezone: user.timezone,
    date_joined: user.date_joined,
    ...user.settings,
  };
}

/** `zerver_stream`. */
export function streamRow(stream: StreamRecord): Row {
  return {
    id: stream.stream_id,
    realm: stream.realm_id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    stream_post_policy: stream.stream_post_policy,
    message_retention_days: stream.message_retention_days,
    date_created: stream.date_created,
    first_message_id: stream.first_message_id,
    recipient: stream.recipient_id,
    creator: stream.creator_id,
    deactivated: stream.deactivated,
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
  };
}

/** `zerver_subscription` (`id` is a sequence of the export: our subscriptions have no ID of their own). */
export function subscriptionRow(id: number, sub: SubscriptionRecord, recipientId: number): Row {
  return {
    id,
    user_profile: sub.user_id,
    recipient: recipientId,
    active: sub.active,
    color: sub.color,
    is_muted: sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    email_notifications: sub.email_notifications,
    push_notifications: sub.push_notifications,
    audible_notifications: sub.audible_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
    role: sub.role,
  };
}

/** `zerver_message`: content as written and as rendered (an import keeps the rendering). */
export function messageRow(m: MessageRecord): Row {
  return {
    id: m.id,
    realm: m.realm_id,
    sender: m.sender_id,
    recipient: m.recipient_id,
    subject: m.topic,
    content: m.content,
    rendered_content: m.rendered_content,
    rendered_content_version: m.rendered_content_version,
    date_sent: m.timestamp,
    last_edit_time: m.last_edit_timestamp ?? null,
    edit_history: m.edit_history.length > 0 ? JSON.stringify(m.edit_history) : null,
    has_attachment: m.has_attachment,
    has_image: m.has_image,
    has_link: m.has_link,
    sending_client: m.client,
    is_me_message: m.is_me_message,
  };
}

/** `zerver_reaction` rows of a message (`id` a sequence of the export). */
export function reactionRows(m: MessageRecord, nextId: () => number): Row[] {
  return Object.entries(m.reactions)
    .sort(([a], [b]) => (m.reaction_order[a] ?? 0) - (m.reaction_order[b] ?? 0))
    .map(([, r]) => ({
      id: nextId(),
      message: m.id,
      user_profile: r.user_id,
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
    }));
}

/** `zerver_attachment`, naming only the exported messages that link it. */
export function attachmentRow(a: AttachmentRecord, messageIds: number[]): Row {
  return {
    id: a.id,
    realm: a.realm_id,
    owner: a.owner_id,
    file_name: a.file_name,
    path_id: a.path_id,
    size: a.size,
    content_type: a.content_type,
    create_time: a.create_time,
    is_realm_public: a.is_realm_public,
    is_web_public: a.is_web_public,
    messages: messageIds,
  };
}

/** `zerver_realmemoji`. */
export function realmEmojiRow(e: RealmEmojiRecord): Row {
  return { id: e.id, realm: e.realm_id, name: e.name, file_name: e.file_name, is_animated: e.is_animated, deactivated: e.deactivated, author: e.author_id };
}

/** `zerver_usergroup` (system groups are `is_system_group`, named `role:…`). */
export function userGroupRow(g: UserGroupRecord): Row {
  return {
    id: g.id,
    realm: g.realm_id,
    name: g.name,
    description: g.description,
    is_system_group: g.name.startsWith("role:"),
    can_manage_group: g.can_manage_group,
    can_mention_group: g.can_mention_group,
    creator: g.creator_id,
    date_created: g.date_created,
  };
}
