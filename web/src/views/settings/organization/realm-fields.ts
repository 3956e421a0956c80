/**
 * The organization settings the forms show, grouped as Zulip's
 * "Organization settings" and "Organization permissions" pages group them
 * (https://zulip.com/help/organization-settings,
 * https://zulip.com/help/manage-permissions), with the values of the
 * feature-level-283 API (https://zulip.com/api/update-realm).
 */
import type { SettingField } from "./form-logic.js";

/** Zulip's common policy values (1 members, 2 admins, 3 full members, 4 moderators). */
const COMMON: [number, string][] = [
  [2, "Admins"],
  [4, "Admins and moderators"],
  [3, "Admins, moderators and full members"],
  [1, "Admins, moderators and members"],
];
const WITH_GUESTS: [number, string] = [5, "Admins, moderators, members and guests"];
const NOBODY: [number, string] = [6, "Nobody"];

const STREAM_CREATORS = ["role:administrators", "role:moderators", "role:fullmembers", "role:members"];

export const MESSAGE_EDITING: SettingField[] = [
  { name: "allow_message_editing", label: "Allow message editing", kind: "bool" },
  { name: "message_content_edit_limit_seconds", label: "Time limit for editing messages", kind: "time-limit" },
  { name: "allow_edit_history", label: "Enable message edit history", kind: "bool" },
];

export const MESSAGE_MOVING: SettingField[] = [
  { name: "edit_topic_policy", label: "Who can move messages to another topic", kind: "select", options: [...COMMON, WITH_GUESTS, NOBODY] },
  { name: "move_messages_within_stream_limit_seconds", label: "Time limit for editing topics", kind: "time-limit" },
  { name: "move_messages_between_streams_policy", label: "Who can move messages to another channel", kind: "select", options: [...COMMON, NOBODY] },
  { name: "move_messages_between_streams_limit_seconds", label: "Time limit for moving messages between channels", kind: "time-limit" },
];

export const MESSAGE_DELETING: SettingField[] = [
  { name: "delete_own_message_policy", label: "Who can delete their own messages", kind: "select", options: [...COMMON, WITH_GUESTS] },
  { name: "message_content_delete_limit_seconds", label: "Time limit for deleting messages", kind: "time-limit" },
  {
    name: "can_delete_any_message_group",
    label: "Who can delete any message",
    kind: "group",
    groups: ["role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:members", "role:nobody"],
  },
];

export const JOINING: SettingField[] = [
  { name: "invite_required", label: "Invitations are required for joining the organization", kind: "bool", ownerOnly: true },
  {
    name: "invite_to_realm_policy",
    label: "Who can invite users to this organization",
    kind: "select",
    options: [...COMMON, NOBODY],
  },
  { name: "waiting_period_threshold", label: "Waiting period before new members turn into full members", kind: "number", min: 0, unit: "days", ownerOnly: true },
];

export const CHANNEL_PERMISSIONS: SettingField[] = [
  { name: "can_create_public_channel_group", label: "Who can create public channels", kind: "group", groups: STREAM_CREATORS },
  { name: "can_create_private_channel_group", label: "Who can create private channels", kind: "group", groups: STREAM_CREATORS },
  { name: "invite_to_stream_policy", label: "Who can add users to channels", kind: "select", options: COMMON },
  {
    name: "wildcard_mention_policy",
    label: "Who can use @all/@everyone mentions in large channels",
    kind: "select",
    options: [
      [1, "Admins, moderators, members and guests"],
      [2, "Admins, moderators and members"],
      [3, "Admins, moderators and full members"],
      [7, "Admins and moderators"],
      [5, "Admins"],
      [6, "Nobody"],
    ],
  },
];

export const OTHER_PERMISSIONS: SettingField[] = [
  { name: "add_custom_emoji_policy", label: "Who can add custom emoji", kind: "select", options: COMMON },
  { name: "user_group_edit_policy", label: "Who can create and manage user groups", kind: "select", options: COMMON },
  {
    name: "bot_creation_policy",
    label: "Who can add bots",
    kind: "select",
    options: [
      [1, "Admins, moderators, members and guests"],
      [2, "Admins, and members can add only incoming webhook bots"],
      [3, "Admins"],
    ],
  },
  { name: "name_changes_disabled", label: "Prevent users from changing their name", kind: "bool" },
  { name: "email_changes_disabled", label: "Prevent users from changing their email address", kind: "bool" },
  { name: "avatar_changes_disabled", label: "Prevent users from changing their avatar", kind: "bool" },
];

export const COMPOSE_SETTINGS: SettingField[] = [
  { name: "mandatory_topics", label: "Require topics in channel messages", kind: "bool" },
  { name: "inline_image_preview", label: "Show previews of uploaded and linked images and videos", kind: "bool" },
  { name: "inline_url_embed_preview", label: "Show previews of linked websites", kind: "bool" },
];

export const NOTIFICATION_SETTINGS: SettingField[] = [
  { name: "send_welcome_emails", label: "Send emails introducing Zulip to new users", kind: "bool" },
  { name: "message_content_allowed_in_email_notifications", label: "Allow message content in message notification emails", kind: "bool" },
  { name: "digest_emails_enabled", label: "Send weekly digest emails to inactive users", kind: "bool" },
  {
    name: "digest_weekday",
    label: "Day of the week to send digests",
    kind: "select",
    options: [
      [0, "Monday"],
      [1, "Tuesday"],
      [2, "Wednesday"],
      [3, "Thursday"],
      [4, "Friday"],
      [5, "Saturday"],
      [6, "Sunday"],
    ],
  },
];

export const OTHER_SETTINGS: SettingField[] = [
  { name: "enable_read_receipts", label: "Enable read receipts", kind: "bool" },
  { name: "presence_disabled", label: "Disable organization-wide presence", kind: "bool" },
  { name: "default_code_block_language", label: "Default language for code blocks", kind: "text", maxLength: 40 },
];
