import { z } from "zod";

/**
 * One strict schema per event type (and `op`) the server delivers, as the
 * client sees it in `GET /events` (spec "Events"; OpenAPI `get-events` at
 * feature level 283 for the shapes the spec leaves out). Strict objects
 * refuse undeclared fields, like Zulip's own event schema checker
 * (zerver/lib/event_schema.py), so a test that validates every delivered
 * event catches a field that drifted from the contract.
 *
 * Where the spec and the OpenAPI disagree the spec wins: the subscription
 * object may carry `role` and `email_address`, a user's `delivery_email`
 * may be absent, and the sender's own `message` event may carry `local_id`.
 */

const id = z.number().int().nonnegative();
const int = z.number().int();
const userId = z.number().int().positive();
const settingValue = z.union([z.boolean(), z.number().int(), z.string()]);

/** A group-setting value: a group ID, or an anonymous set of users and groups. */
export const groupSettingValue = z.union([
  int,
  z.strictObject({ direct_members: z.array(int), direct_subgroups: z.array(int) }),
]);

/** A channel (stream) as in `stream` events and `POST /register` `streams` (OpenAPI `BasicChannel`). */
export const streamSchema = z.strictObject({
  stream_id: userId,
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  date_created: int,
  creator_id: int.nullable(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  stream_post_policy: z.number().int().min(1).max(4),
  message_retention_days: int.nullable(),
  history_public_to_subscribers: z.boolean(),
  first_message_id: int.nullable(),
  is_announcement_only: z.boolean(),
  can_remove_subscribers_group: int,
  stream_weekly_traffic: int.nullable(),
});

/** A subscription as in `subscription` `add` events and `POST /register` `subscriptions`/`unsubscribed`. */
export const subscriptionSchema = streamSchema.extend({
  subscribers: z.array(userId).optional(),
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

const profileData = z.record(z.string(), z.strictObject({ value: z.string(), rendered_value: z.string().optional() }));

/** A user as in `realm_user` `add` events and `POST /register` `realm_users` (OpenAPI `User`, spec "User"). */
export const userSchema = z.strictObject({
  user_id: userId,
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
  bot_type: int.nullable(),
  bot_owner_id: int.nullable().optional(),
  role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  timezone: z.string(),
  // May be left out for clients with `user_avatar_url_field_optional`.
  avatar_url: z.string().nullable().optional(),
  avatar_version: int,
  profile_data: profileData.optional(),
});

const displayRecipientUser = z.strictObject({
  id: userId,
  email: z.string(),
  full_name: z.string(),
  is_mirror_dummy: z.boolean(),
});

/** A reaction (OpenAPI `EmojiReaction`). */
export const reactionSchema = z.strictObject({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(["unicode_emoji", "realm_emoji", "zulip_extra_emoji"]),
  user_id: userId,
  user: z
    .strictObject({ id: userId, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() })
    .optional(),
});

/**
 * The deprecated `user` of a `reaction` event (OpenAPI `EmojiReactionEvent`):
 * `user_id`, `email`, `full_name` (Zulip sends these three; the schema also
 * lists `is_mirror_dummy`).
 */
const reactionEventUser = z.strictObject({
  user_id: userId,
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
  display_recipient: z.union([z.string(), z.array(displayRecipientUser)]),
  edit_history: z.array(z.record(z.string(), z.unknown())).optional(),
  id: userId,
  is_me_message: z.boolean(),
  last_edit_timestamp: int.optional(),
  reactions: z.array(reactionSchema),
  recipient_id: int,
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_id: userId,
  sender_realm_str: z.string(),
  stream_id: userId.optional(),
  subject: z.string(),
  submessages: z.array(z.record(z.string(), z.unknown())),
  timestamp: int,
  topic_links: z.array(z.strictObject({ text: z.string(), url: z.string() })),
  type: z.enum(["stream", "private"]),
});

const legacyPresence = z.strictObject({
  client: z.string(),
  status: z.enum(["idle", "active"]),
  timestamp: int,
  pushable: z.boolean(),
});

const typingPerson = z.strictObject({ user_id: userId, email: z.string() });

const typingEvent = (op: "start" | "stop") =>
  z.union([
    z.strictObject({
      id,
      type: z.literal("typing"),
      op: z.literal(op),
      message_type: z.literal("direct"),
      sender: typingPerson,
      recipients: z.array(typingPerson),
    }),
    z.strictObject({
      id,
      type: z.literal("typing"),
      op: z.literal(op),
      message_type: z.literal("stream"),
      sender: typingPerson,
      stream_id: userId,
      topic: z.string(),
    }),
  ]);

const realmUserUpdatePerson = z.union([
  z.strictObject({ user_id: userId, full_name: z.string() }),
  z.strictObject({
    user_id: userId,
    avatar_url: z.string().nullable(),
    avatar_source: z.string(),
    avatar_url_medium: z.string().nullable(),
    avatar_version: int,
  }),
  z.strictObject({ user_id: userId, email: z.string(), timezone: z.string() }),
  z.strictObject({ user_id: userId, bot_owner_id: int }),
  z.strictObject({ user_id: userId, role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]) }),
  z.strictObject({ user_id: userId, is_billing_admin: z.boolean() }),
  z.strictObject({ user_id: userId, delivery_email: z.string().nullable() }),
  z.strictObject({
    user_id: userId,
    custom_profile_field: z.strictObject({
      id: int,
      value: z.string().nullable(),
      rendered_value: z.string().optional(),
    }),
  }),
  z.strictObject({ user_id: userId, new_email: z.string() }),
  z.strictObject({ user_id: userId, is_active: z.boolean() }),
]);

const realmBot = z.strictObject({
  user_id: userId,
  full_name: z.string(),
  api_key: z.string(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
  avatar_url: z.string(),
  owner_id: int.nullable(),
  services: z.array(z.record(z.string(), z.unknown())),
  email: z.string(),
  bot_type: int.nullable(),
  is_active: z.boolean(),
});

const messageDetails = z.record(
  z.string(),
  z.strictObject({
    type: z.enum(["private", "stream"]),
    mentioned: z.boolean().optional(),
    user_ids: z.array(userId).optional(),
    stream_id: userId.optional(),
    topic: z.string().optional(),
    unmuted_stream_msg: z.boolean().optional(),
  }),
);

/**
 * Every delivered event's schema, keyed by `type` or `type/op`. A union
 * where one key has several shapes (typing: direct or stream).
 */
export const EVENT_SCHEMAS = {
  heartbeat: z.strictObject({ id, type: z.literal("heartbeat") }),
  message: z.strictObject({
    id,
    type: z.literal("message"),
    message: messageEventMessageSchema,
    flags: z.array(z.string()),
    // Only in the sending queue's copy (Zulip's name, and the spec's).
    local_message_id: z.string().optional(),
    local_id: z.string().optional(),
  }),
  "subscription/add": z.strictObject({
    id,
    type: z.literal("subscription"),
    op: z.literal("add"),
    subscriptions: z.array(subscriptionSchema),
  }),
  "subscription/remove": z.strictObject({
    id,
    type: z.literal("subscription"),
    op: z.literal("remove"),
    subscriptions: z.array(z.strictObject({ stream_id: userId, name: z.string() })),
  }),
  "subscription/update": z.strictObject({
    id,
    type: z.literal("subscription"),
    op: z.literal("update"),
    stream_id: userId,
    property: z.string(),
    value: settingValue,
  }),
  "subscription/peer_add": z.strictObject({
    id,
    type: z.literal("subscription"),
    op: z.literal("peer_add"),
    stream_ids: z.array(userId),
    user_ids: z.array(userId),
  }),
  "subscription/peer_remove": z.strictObject({
    id,
    type: z.literal("subscription"),
    op: z.literal("peer_remove"),
    stream_ids: z.array(userId),
    user_ids: z.array(userId),
  }),
  "stream/create": z.strictObject({ id, type: z.literal("stream"), op: z.literal("create"), streams: z.array(streamSchema) }),
  "stream/delete": z.strictObject({ id, type: z.literal("stream"), op: z.literal("delete"), streams: z.array(streamSchema) }),
  "stream/update": z.strictObject({
    id,
    type: z.literal("stream"),
    op: z.literal("update"),
    stream_id: userId,
    name: z.string(),
    property: z.string(),
    value: settingValue.nullable(),
    rendered_description: z.string().optional(),
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
  "realm_user/add": z.strictObject({ id, type: z.literal("realm_user"), op: z.literal("add"), person: userSchema }),
  "realm_user/update": z.strictObject({
    id,
    type: z.literal("realm_user"),
    op: z.literal("update"),
    person: realmUserUpdatePerson,
  }),
  "realm_user/remove": z.strictObject({
    id,
    type: z.literal("realm_user"),
    op: z.literal("remove"),
    person: z.strictObject({ user_id: userId, full_name: z.string() }),
  }),
  "realm_bot/add": z.strictObject({ id, type: z.literal("realm_bot"), op: z.literal("add"), bot: realmBot }),
  "realm_bot/update": z.strictObject({
    id,
    type: z.literal("realm_bot"),
    op: z.literal("update"),
    bot: realmBot.partial().required({ user_id: true }),
  }),
  "realm_bot/remove": z.strictObject({
    id,
    type: z.literal("realm_bot"),
    op: z.literal("remove"),
    bot: z.strictObject({ user_id: userId, full_name: z.string() }),
  }),
  "realm_bot/delete": z.strictObject({
    id,
    type: z.literal("realm_bot"),
    op: z.literal("delete"),
    bot: z.strictObject({ user_id: userId }),
  }),
  "user_settings/update": z.strictObject({
    id,
    type: z.literal("user_settings"),
    op: z.literal("update"),
    property: z.string(),
    value: settingValue,
    language_name: z.string().optional(),
  }),
  update_display_settings: z.strictObject({
    id,
    type: z.literal("update_display_settings"),
    user: z.string(),
    setting_name: z.string(),
    setting: settingValue,
    language_name: z.string().optional(),
  }),
  update_global_notifications: z.strictObject({
    id,
    type: z.literal("update_global_notifications"),
    user: z.string(),
    notification_name: z.string(),
    setting: settingValue,
  }),
  presence: z.strictObject({
    id,
    type: z.literal("presence"),
    user_id: userId,
    // Absent for `slim_presence` queues.
    email: z.string().optional(),
    server_timestamp: z.number(),
    presence: z.record(z.string(), legacyPresence),
  }),
  "typing/start": typingEvent("start"),
  "typing/stop": typingEvent("stop"),
  update_message: z.strictObject({
    id,
    type: z.literal("update_message"),
    user_id: userId.nullable(),
    rendering_only: z.boolean(),
    message_id: userId,
    message_ids: z.array(userId),
    flags: z.array(z.string()),
    edit_timestamp: int,
    stream_name: z.string().optional(),
    stream_id: userId.optional(),
    new_stream_id: userId.optional(),
    propagate_mode: z.enum(["change_one", "change_later", "change_all"]).optional(),
    orig_subject: z.string().optional(),
    subject: z.string().optional(),
    topic_links: z.array(z.strictObject({ text: z.string(), url: z.string() })).optional(),
    orig_content: z.string().optional(),
    orig_rendered_content: z.string().optional(),
    prev_rendered_content_version: int.optional(),
    content: z.string().optional(),
    rendered_content: z.string().optional(),
    is_me_message: z.boolean().optional(),
  }),
  delete_message: z.union([
    z.strictObject({
      id,
      type: z.literal("delete_message"),
      message_ids: z.array(userId),
      message_type: z.enum(["private", "stream"]),
      stream_id: userId.optional(),
      topic: z.string().optional(),
    }),
    z.strictObject({
      id,
      type: z.literal("delete_message"),
      message_id: userId,
      message_type: z.enum(["private", "stream"]),
      stream_id: userId.optional(),
      topic: z.string().optional(),
    }),
  ]),
  "reaction/add": reactionSchema.extend({
    id,
    type: z.literal("reaction"),
    op: z.literal("add"),
    message_id: userId,
    user: reactionEventUser.optional(),
  }),
  "reaction/remove": reactionSchema.extend({
    id,
    type: z.literal("reaction"),
    op: z.literal("remove"),
    message_id: userId,
    user: reactionEventUser.optional(),
  }),
  "update_message_flags/add": z.strictObject({
    id,
    type: z.literal("update_message_flags"),
    op: z.literal("add"),
    operation: z.literal("add"),
    flag: z.string(),
    messages: z.array(userId),
    all: z.boolean(),
  }),
  "update_message_flags/remove": z.strictObject({
    id,
    type: z.literal("update_message_flags"),
    op: z.literal("remove"),
    operation: z.literal("remove"),
    flag: z.string(),
    messages: z.array(userId),
    all: z.boolean(),
    message_details: messageDetails.optional(),
  }),
  user_status: z.strictObject({
    id,
    type: z.literal("user_status"),
    user_id: userId,
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(["unicode_emoji", "realm_emoji", "zulip_extra_emoji"]).optional(),
  }),
  alert_words: z.strictObject({ id, type: z.literal("alert_words"), alert_words: z.array(z.string()) }),
  muted_users: z.strictObject({
    id,
    type: z.literal("muted_users"),
    muted_users: z.array(z.strictObject({ id: userId, timestamp: int })),
  }),
  user_topic: z.strictObject({
    id,
    type: z.literal("user_topic"),
    stream_id: userId,
    topic_name: z.string(),
    last_updated: int,
    visibility_policy: int,
  }),
  // https://zulip.com/api/get-events#default_streams: the whole list (OpenAPI `DefaultChannel`, no traffic).
  default_streams: z.strictObject({
    id,
    type: z.literal("default_streams"),
    default_streams: z.array(streamSchema.omit({ stream_weekly_traffic: true })),
  }),
} satisfies Record<string, z.ZodType>;

/** The schema key of every event type (and `op`) the server delivers. */
export type EventSchemaKey = keyof typeof EVENT_SCHEMAS;

/** The schema key of an event: `type/op` when such a schema exists, else `type`. */
export function eventSchemaKey(event: { type?: unknown; op?: unknown }): string {
  const withOp = `${String(event.type)}/${String(event.op)}`;
  return event.op !== undefined && withOp in EVENT_SCHEMAS ? withOp : String(event.type);
}

/**
 * Checks a delivered event (with its `id`) against its strict schema.
 * @returns the event, unchanged
 * @throws Error naming the event type and the first mismatch, for an
 *   unknown type or an event that does not match its schema
 */
export function validateEvent<T extends Record<string, unknown>>(event: T): T {
  const key = eventSchemaKey(event);
  const schema = (EVENT_SCHEMAS as Record<string, z.ZodType>)[key];
  if (!schema) throw new Error(`No schema for event type ${key}: ${JSON.stringify(event)}`);
  const result = schema.safeParse(event);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(
      `Event ${key} does not match its schema at ${issue.path.join(".") || "(root)"}: ${issue.message}\n${JSON.stringify(event)}`,
    );
  }
  return event;
}
