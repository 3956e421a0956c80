import { z } from "zod";

/**
 * The building blocks of the event schemas (`schemas.ts`): the objects
 * events carry — streams, subscriptions, users, messages, reactions,
 * presence — as the client sees them (https://zulip.com/api/get-events).
 * Strict objects refuse undeclared fields.
 */

export const eventIdField = z.number().int().nonnegative();
export const integer = z.number().int();
export const positiveId = z.number().int().positive();
export const settingValueSchema = z.union([z.boolean(), z.number().int(), z.string()]);

/** A group-setting value: a group ID, or an anonymous set of users and groups. */
export const groupSettingValue = z.union([
  integer,
  z.strictObject({ direct_members: z.array(integer), direct_subgroups: z.array(integer) }),
]);

/** A channel (stream) as in `stream` events and `POST /register` `streams` (OpenAPI `BasicChannel`). */
export const streamSchema = z.strictObject({
  stream_id: positiveId,
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  date_created: integer,
  creator_id: integer.nullable(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  stream_post_policy: z.number().int().min(1).max(4),
  message_retention_days: integer.nullable(),
  history_public_to_subscribers: z.boolean(),
  first_message_id: integer.nullable(),
  is_announcement_only: z.boolean(),
  can_remove_subscribers_group: integer,
  stream_weekly_traffic: integer.nullable(),
});

/** A subscription as in `subscription` `add` events and `POST /register` `subscriptions`/`unsubscribed`. */
export const subscriptionSchema = streamSchema.extend({
  subscribers: z.array(positiveId).optional(),
  desktop_notifications: z.boolean().nullable(),
  email_notifications: z.boolean().nullable(),
  wildcard_mentions_notify: z.boolean().nullable(),
  push_notifications: z.boolean().nullable(),
  audible_notifications: z.boolean().nullable(),
  pin_to_top: z.boolean(),
  is_muted: z.boolean(),
  in_home_view: z.boolean(),
  color: z.string(),
  // Spec "Events" lists these two; Zulip dropped them (feature levels 226, 133).
  role: z.union([z.literal(20), z.literal(50)]).optional(),
  email_address: z.string().optional(),
});

export const profileDataSchema = z.record(z.string(), z.strictObject({ value: z.string(), rendered_value: z.string().optional() }));

/** A user as in `realm_user` `add` events and `POST /register` `realm_users` (https://zulip.com/api/get-user: the `user` object). */
export const userSchema = z.strictObject({
  user_id: positiveId,
  delivery_email: z.string().nullable().optional(),
  email: z.string(),
  full_name: z.string(),
  date_joined: z.string(),
  is_active: z.boolean(),
  is_owner: z.boolean(),
  is_admin: z.boolean(),
  is_guest: z.boolean(),
  is_billing_admin: z.boolean(),
  is_bot: z.boolean(),
  bot_type: integer.nullable(),
  bot_owner_id: integer.nullable().optional(),
  role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  timezone: z.string(),
  // May be left out for clients with `user_avatar_url_field_optional`.
  avatar_url: z.string().nullable().optional(),
  avatar_version: integer,
  profile_data: profileDataSchema.optional(),
});

export const displayRecipientUserSchema = z.strictObject({
  id: positiveId,
  email: z.string(),
  full_name: z.string(),
  is_mirror_dummy: z.boolean(),
});

/** A reaction (OpenAPI `EmojiReaction`). */
export const reactionSchema = z.strictObject({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(["unicode_emoji", "realm_emoji", "zulip_extra_emoji"]),
  user_id: positiveId,
  user: z
    .strictObject({ id: positiveId, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() })
    .optional(),
});

/** A submessage in a message's `submessages` (OpenAPI `MessagesBase.submessages`). */
export const submessageSchema = z.strictObject({
  msg_type: z.string(),
  content: z.string(),
  message_id: positiveId,
  sender_id: positiveId,
  id: positiveId,
});

/**
 * The deprecated `user` of a `reaction` event (OpenAPI `EmojiReactionEvent`):
 * `user_id`, `email`, `full_name` (Zulip sends these three; the schema also
 * lists `is_mirror_dummy`).
 */
export const reactionEventUserSchema = z.strictObject({
  user_id: positiveId,
  email: z.string(),
  full_name: z.string(),
  is_mirror_dummy: z.boolean().optional(),
});

/** The message of a `message` event (OpenAPI `MessagesEvent`). */
export const messageEventMessageSchema = z.strictObject({
  avatar_url: z.string().nullable(),
  client: z.string(),
  content: z.string(),
  content_type: z.enum(["text/html", "text/x-markdown"]),
  display_recipient: z.union([z.string(), z.array(displayRecipientUserSchema)]),
  edit_history: z.array(z.record(z.string(), z.unknown())).optional(),
  id: positiveId,
  is_me_message: z.boolean(),
  last_edit_timestamp: integer.optional(),
  reactions: z.array(reactionSchema),
  recipient_id: integer,
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_id: positiveId,
  sender_realm_str: z.string(),
  stream_id: positiveId.optional(),
  subject: z.string(),
  submessages: z.array(submessageSchema),
  timestamp: integer,
  topic_links: z.array(z.strictObject({ text: z.string(), url: z.string() })),
  type: z.enum(["stream", "private"]),
});

export const legacyPresenceSchema = z.strictObject({
  client: z.string(),
  status: z.enum(["idle", "active"]),
  timestamp: integer,
  pushable: z.boolean(),
});

export const typingPersonSchema = z.strictObject({ user_id: positiveId, email: z.string() });

export const typingEventSchema = (op: "start" | "stop") =>
  z.union([
    z.strictObject({
      id: eventIdField,
      type: z.literal("typing"),
      op: z.literal(op),
      message_type: z.literal("direct"),
      sender: typingPersonSchema,
      recipients: z.array(typingPersonSchema),
    }),
    z.strictObject({
      id: eventIdField,
      type: z.literal("typing"),
      op: z.literal(op),
      message_type: z.literal("stream"),
      sender: typingPersonSchema,
      stream_id: positiveId,
      topic: z.string(),
    }),
  ]);

export const realmUserUpdatePersonSchema = z.union([
  z.strictObject({ user_id: positiveId, full_name: z.string() }),
  z.strictObject({
    user_id: positiveId,
    avatar_url: z.string().nullable(),
    avatar_source: z.string(),
    avatar_url_medium: z.string().nullable(),
    avatar_version: integer,
  }),
  z.strictObject({ user_id: positiveId, email: z.string(), timezone: z.string() }),
  z.strictObject({ user_id: positiveId, bot_owner_id: integer }),
  z.strictObject({ user_id: positiveId, role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]) }),
  z.strictObject({ user_id: positiveId, is_billing_admin: z.boolean() }),
  z.strictObject({ user_id: positiveId, delivery_email: z.string().nullable() }),
  z.strictObject({
    user_id: positiveId,
    custom_profile_field: z.strictObject({
      id: integer,
      value: z.string().nullable(),
      rendered_value: z.string().optional(),
    }),
  }),
  z.strictObject({ user_id: positiveId, new_email: z.string() }),
  z.strictObject({ user_id: positiveId, is_active: z.boolean() }),
]);

export const realmBotSchema = z.strictObject({
  user_id: positiveId,
  full_name: z.string(),
  api_key: z.string(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
  avatar_url: z.string(),
  owner_id: integer.nullable(),
  services: z.array(z.record(z.string(), z.unknown())),
  email: z.string(),
  bot_type: integer.nullable(),
  is_active: z.boolean(),
});

export const messageDetailsSchema = z.record(
  z.string(),
  z.strictObject({
    type: z.enum(["private", "stream"]),
    mentioned: z.boolean().optional(),
    user_ids: z.array(positiveId).optional(),
    stream_id: positiveId.optional(),
    topic: z.string().optional(),
    unmuted_stream_msg: z.boolean().optional(),
  }),
);

/** A user group as in `user_group` `add` events and `POST /register` `realm_user_groups` (OpenAPI `UserGroup`, feature level 283). */
export const userGroupSchema = z.strictObject({
  id: integer,
  name: z.string(),
  description: z.string(),
  members: z.array(integer),
  direct_subgroup_ids: z.array(integer),
  is_system_group: z.boolean(),
  can_manage_group: groupSettingValue,
  can_mention_group: groupSettingValue,
});

/** A custom profile field (OpenAPI `CustomProfileField`): `custom_profile_fields` events and register. */
export const customProfileFieldSchema = z.strictObject({
  id: positiveId,
  name: z.string(),
  type: z.number().int().min(1).max(8),
  hint: z.string(),
  field_data: z.string(),
  order: integer,
  required: z.boolean(),
  display_in_profile_summary: z.literal(true).optional(),
});

/** OpenAPI `RealmEmoji`: one custom emoji in `realm_emoji` (register, events) and `GET /realm/emoji`. */
export const realmEmojiSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullable(),
  deactivated: z.boolean(),
  author_id: z.number().int().nullable(),
});
