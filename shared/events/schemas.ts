import { z } from "zod";

/**
 * One strict schema per event type (and `op`) the server delivers, as the
 * client sees it in `GET /events` (https://zulip.com/api/get-events, at
 * feature level 283). Strict objects refuse undeclared fields, like Zulip's
 * own event schema checker (`zerver/lib/event_schema.py`), so a test that
 * validates every delivered event catches a field that drifted from the
 * contract; `types.ts` infers each event's TypeScript type from them.
 *
 * Beyond the API page: the subscription object may carry `role` and
 * `email_address`, a user's `delivery_email` may be absent, and the
 * sender's own `message` event may carry `local_id`.
 */

import {
  eventIdField,
  integer,
  legacyPresenceSchema,
  messageDetailsSchema,
  messageEventMessageSchema,
  reactionEventUserSchema,
  reactionSchema,
  realmBotSchema,
  realmUserUpdatePersonSchema,
  settingValueSchema,
  streamSchema,
  subscriptionSchema,
  typingEventSchema,
  positiveId,
  userSchema,
} from "./object-schemas.js";
import { ORGANIZATION_EVENT_SCHEMAS } from "./organization-schemas.js";
import { realmEmojiSchema } from "./object-schemas.js";
import { ATTACHMENT_EVENT_SCHEMAS } from "./attachment-schemas.js";

/** A draft as events carry it (OpenAPI `Draft`, with its `id` and `timestamp` in UNIX seconds). */
const draftSchema = z.strictObject({
  id: positiveId,
  type: z.enum(["", "stream", "private"]),
  to: z.array(positiveId),
  topic: z.string(),
  content: z.string(),
  timestamp: integer,
});

/** A scheduled message as events carry it (OpenAPI `ScheduledMessage`; `topic` for stream messages only). */
const scheduledMessageSchema = z.strictObject({
  scheduled_message_id: positiveId,
  type: z.enum(["stream", "private"]),
  to: z.union([positiveId, z.array(positiveId)]),
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: integer,
  failed: z.boolean(),
});

/**
 * Every delivered event's schema, keyed by `type` or `type/op`. A union
 * where one key has several shapes (typing: direct or stream).
 */
export const EVENT_SCHEMAS = {
  heartbeat: z.strictObject({ id: eventIdField, type: z.literal("heartbeat") }),
  message: z.strictObject({
    id: eventIdField,
    type: z.literal("message"),
    message: messageEventMessageSchema,
    flags: z.array(z.string()),
    // Only in the sending queue's copy: `local_message_id` is Zulip's name, `local_id` the older one clients also read.
    local_message_id: z.string().optional(),
    local_id: z.string().optional(),
  }),
  "subscription/add": z.strictObject({
    id: eventIdField,
    type: z.literal("subscription"),
    op: z.literal("add"),
    subscriptions: z.array(subscriptionSchema),
  }),
  "subscription/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("subscription"),
    op: z.literal("remove"),
    subscriptions: z.array(z.strictObject({ stream_id: positiveId, name: z.string() })),
  }),
  "subscription/update": z.strictObject({
    id: eventIdField,
    type: z.literal("subscription"),
    op: z.literal("update"),
    stream_id: positiveId,
    property: z.string(),
    value: settingValueSchema,
  }),
  "subscription/peer_add": z.strictObject({
    id: eventIdField,
    type: z.literal("subscription"),
    op: z.literal("peer_add"),
    stream_ids: z.array(positiveId),
    user_ids: z.array(positiveId),
  }),
  "subscription/peer_remove": z.strictObject({
    id: eventIdField,
    type: z.literal("subscription"),
    op: z.literal("peer_remove"),
    stream_ids: z.array(positiveId),
    user_ids: z.array(positiveId),
  }),
  "stream/create": z.strictObject({ id: eventIdField, type: z.literal("stream"), op: z.literal("create"), streams: z.array(streamSchema) }),
  "stream/delete": z.strictObject({ id: eventIdField, type: z.literal("stream"), op: z.literal("delete"), streams: z.array(streamSchema) }),
  "stream/update": z.strictObject({
    id: eventIdField,
    type: z.literal("stream"),
    op: z.literal("update"),
    stream_id: positiveId,
    name: z.string(),
    property: z.string(),
    value: settingValueSchema.nullable(),
    rendered_description: z.string().optional(),
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
  "realm_user/add": z.strictObject({ id: eventIdField, type: z.literal("realm_user"), op: z.literal("add"), person: userSchema }),
  "realm_user/update": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_user"),
    op: z.literal("update"),
    person: realmUserUpdatePersonSchema,
  }),
  "realm_user/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_user"),
    op: z.literal("remove"),
    person: z.strictObject({ user_id: positiveId, full_name: z.string() }),
  }),
  "realm_bot/add": z.strictObject({ id: eventIdField, type: z.literal("realm_bot"), op: z.literal("add"), bot: realmBotSchema }),
  "realm_bot/update": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_bot"),
    op: z.literal("update"),
    bot: realmBotSchema.partial().required({ user_id: true }),
  }),
  "realm_bot/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_bot"),
    op: z.literal("remove"),
    bot: z.strictObject({ user_id: positiveId, full_name: z.string() }),
  }),
  "realm_bot/delete": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_bot"),
    op: z.literal("delete"),
    bot: z.strictObject({ user_id: positiveId }),
  }),
  "user_settings/update": z.strictObject({
    id: eventIdField,
    type: z.literal("user_settings"),
    op: z.literal("update"),
    property: z.string(),
    value: settingValueSchema,
    language_name: z.string().optional(),
  }),
  update_display_settings: z.strictObject({
    id: eventIdField,
    type: z.literal("update_display_settings"),
    user: z.string(),
    setting_name: z.string(),
    setting: settingValueSchema,
    language_name: z.string().optional(),
  }),
  update_global_notifications: z.strictObject({
    id: eventIdField,
    type: z.literal("update_global_notifications"),
    user: z.string(),
    notification_name: z.string(),
    setting: settingValueSchema,
  }),
  presence: z.strictObject({
    id: eventIdField,
    type: z.literal("presence"),
    user_id: positiveId,
    // Absent for `slim_presence` queues.
    email: z.string().optional(),
    server_timestamp: z.number(),
    presence: z.record(z.string(), legacyPresenceSchema),
  }),
  "typing/start": typingEventSchema("start"),
  "typing/stop": typingEventSchema("stop"),
  update_message: z.strictObject({
    id: eventIdField,
    type: z.literal("update_message"),
    user_id: positiveId.nullable(),
    rendering_only: z.boolean(),
    message_id: positiveId,
    message_ids: z.array(positiveId),
    flags: z.array(z.string()),
    edit_timestamp: integer,
    stream_name: z.string().optional(),
    stream_id: positiveId.optional(),
    new_stream_id: positiveId.optional(),
    propagate_mode: z.enum(["change_one", "change_later", "change_all"]).optional(),
    orig_subject: z.string().optional(),
    subject: z.string().optional(),
    topic_links: z.array(z.strictObject({ text: z.string(), url: z.string() })).optional(),
    orig_content: z.string().optional(),
    orig_rendered_content: z.string().optional(),
    prev_rendered_content_version: integer.optional(),
    content: z.string().optional(),
    rendered_content: z.string().optional(),
    is_me_message: z.boolean().optional(),
  }),
  delete_message: z.union([
    z.strictObject({
      id: eventIdField,
      type: z.literal("delete_message"),
      message_ids: z.array(positiveId),
      message_type: z.enum(["private", "stream"]),
      stream_id: positiveId.optional(),
      topic: z.string().optional(),
    }),
    z.strictObject({
      id: eventIdField,
      type: z.literal("delete_message"),
      message_id: positiveId,
      message_type: z.enum(["private", "stream"]),
      stream_id: positiveId.optional(),
      topic: z.string().optional(),
    }),
  ]),
  "reaction/add": reactionSchema.extend({
    id: eventIdField,
    type: z.literal("reaction"),
    op: z.literal("add"),
    message_id: positiveId,
    user: reactionEventUserSchema.optional(),
  }),
  "reaction/remove": reactionSchema.extend({
    id: eventIdField,
    type: z.literal("reaction"),
    op: z.literal("remove"),
    message_id: positiveId,
    user: reactionEventUserSchema.optional(),
  }),
  submessage: z.strictObject({
    id: eventIdField,
    type: z.literal("submessage"),
    msg_type: z.string(),
    content: z.string(),
    message_id: positiveId,
    sender_id: positiveId,
    submessage_id: positiveId,
  }),
  "update_message_flags/add": z.strictObject({
    id: eventIdField,
    type: z.literal("update_message_flags"),
    op: z.literal("add"),
    operation: z.literal("add"),
    flag: z.string(),
    messages: z.array(positiveId),
    all: z.boolean(),
  }),
  "update_message_flags/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("update_message_flags"),
    op: z.literal("remove"),
    operation: z.literal("remove"),
    flag: z.string(),
    messages: z.array(positiveId),
    all: z.boolean(),
    message_details: messageDetailsSchema.optional(),
  }),
  user_status: z.strictObject({
    id: eventIdField,
    type: z.literal("user_status"),
    user_id: positiveId,
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(["unicode_emoji", "realm_emoji", "zulip_extra_emoji"]).optional(),
  }),
  alert_words: z.strictObject({ id: eventIdField, type: z.literal("alert_words"), alert_words: z.array(z.string()) }),
  muted_users: z.strictObject({
    id: eventIdField,
    type: z.literal("muted_users"),
    muted_users: z.array(z.strictObject({ id: positiveId, timestamp: integer })),
  }),
  user_topic: z.strictObject({
    id: eventIdField,
    type: z.literal("user_topic"),
    stream_id: positiveId,
    topic_name: z.string(),
    last_updated: integer,
    visibility_policy: integer,
  }),
  // https://zulip.com/api/get-events#default_streams: the whole list (OpenAPI `DefaultChannel`, no traffic).
  default_streams: z.strictObject({
    id: eventIdField,
    type: z.literal("default_streams"),
    default_streams: z.array(streamSchema.omit({ stream_weekly_traffic: true })),
  }),
  // https://zulip.com/api/get-events#onboarding_steps: the steps still to show (OpenAPI `OnboardingStep`).
  onboarding_steps: z.strictObject({
    id: eventIdField,
    type: z.literal("onboarding_steps"),
    onboarding_steps: z.array(z.strictObject({ type: z.string(), name: z.string() })),
  }),
  // https://zulip.com/api/get-events#drafts-add, #drafts-update, #drafts-remove (OpenAPI `Draft`).
  "drafts/add": z.strictObject({
    id: eventIdField,
    type: z.literal("drafts"),
    op: z.literal("add"),
    drafts: z.array(draftSchema),
  }),
  "drafts/update": z.strictObject({ id: eventIdField, type: z.literal("drafts"), op: z.literal("update"), draft: draftSchema }),
  "drafts/remove": z.strictObject({ id: eventIdField, type: z.literal("drafts"), op: z.literal("remove"), draft_id: positiveId }),
  // https://zulip.com/api/get-events#scheduled_messages-add, #scheduled_messages-update, #scheduled_messages-remove.
  "scheduled_messages/add": z.strictObject({
    id: eventIdField,
    type: z.literal("scheduled_messages"),
    op: z.literal("add"),
    scheduled_messages: z.array(scheduledMessageSchema),
  }),
  "scheduled_messages/update": z.strictObject({
    id: eventIdField,
    type: z.literal("scheduled_messages"),
    op: z.literal("update"),
    scheduled_message: scheduledMessageSchema,
  }),
  "scheduled_messages/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("scheduled_messages"),
    op: z.literal("remove"),
    scheduled_message_id: positiveId,
  }),
  // https://zulip.com/api/get-events#muted_topics: the legacy form of `user_topic`, the whole
  // list of muted topics as [stream name, topic, UNIX seconds] tuples.
  muted_topics: z.strictObject({
    id: eventIdField,
    type: z.literal("muted_topics"),
    muted_topics: z.array(z.tuple([z.string(), z.string(), integer])),
  }),
  ...ORGANIZATION_EVENT_SCHEMAS,
  // https://zulip.com/api/get-events#realm_emoji-update: every custom emoji of the realm (OpenAPI `RealmEmoji`).
  "realm_emoji/update": z.strictObject({
    id: eventIdField,
    type: z.literal("realm_emoji"),
    op: z.literal("update"),
    realm_emoji: z.record(z.string(), realmEmojiSchema),
  }),
  ...ATTACHMENT_EVENT_SCHEMAS,
  // https://zulip.com/api/get-events#invites_changed: the set of invitations changed; refetch GET /invites.
  invites_changed: z.strictObject({ id: eventIdField, type: z.literal("invites_changed") }),
} satisfies Record<string, z.ZodType>;

/** The schema key of every event type (and `op`) the server delivers. */
export type EventSchemaKey = keyof typeof EVENT_SCHEMAS;

/** The schema key of an event: `type/op` when such a schema exists, else `type`. */
export function eventSchemaKey(event: { type?: unknown; op?: unknown }): string {
  const withOp = `${String(event.type)}/${String(event.op)}`;
  return event.op !== undefined && withOp in EVENT_SCHEMAS ? withOp : String(event.type);
}

/**
 * Checks a delivered event (with its `eventIdField`) against its strict schema.
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
