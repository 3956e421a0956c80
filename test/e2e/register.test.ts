import { describe, expect, it } from "vitest";
import { z } from "zod";
import { systemGroupId } from "../../shared/domain/realm-settings.js";
import { streamSchema, subscriptionSchema, userSchema } from "../../shared/events/object-schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

/** Every key of the OpenAPI `register-queue` response (feature level 283) but the demo-organization date. */
const OPENAPI_KEYS = `queue_id last_event_id zulip_feature_level zulip_version zulip_merge_base alert_words custom_profile_fields
custom_profile_field_types realm_date_created drafts onboarding_steps max_message_id max_stream_name_length
max_stream_description_length max_topic_length max_message_length server_presence_ping_interval_seconds
server_presence_offline_threshold_seconds server_typing_started_expiry_period_milliseconds
server_typing_stopped_wait_period_milliseconds server_typing_started_wait_period_milliseconds
scheduled_messages muted_topics muted_users presences presence_last_update_id server_timestamp realm_domains
realm_emoji realm_linkifiers realm_filters realm_playgrounds realm_user_groups realm_bots realm_embedded_bots
realm_incoming_webhook_bots recent_private_conversations subscriptions unsubscribed never_subscribed
unread_msgs starred_messages streams realm_default_streams realm_default_stream_groups stop_words user_status
user_settings user_topics has_zoom_token giphy_api_key enable_desktop_notifications enable_digest_emails
enable_login_emails enable_marketing_emails email_notifications_batching_period_seconds
enable_offline_email_notifications enable_offline_push_notifications enable_online_push_notifications
enable_sounds enable_stream_desktop_notifications enable_stream_email_notifications
enable_stream_push_notifications enable_stream_audible_notifications wildcard_mentions_notify
message_content_in_email_notifications notification_sound pm_content_in_desktop_notifications
desktop_icon_count_display realm_name_in_email_notifications_policy presence_enabled
available_notification_sounds color_scheme default_language demote_inactive_streams dense_mode emojiset
enable_drafts_synchronization fluid_layout_width web_home_view high_contrast_mode left_side_userlist
starred_message_counts timezone translate_emoticons twenty_four_hour_time receives_typing_notifications
enter_sends emojiset_choices realm_add_custom_emoji_policy realm_allow_edit_history
realm_can_delete_any_message_group realm_delete_own_message_policy realm_bot_creation_policy
realm_can_create_public_channel_group realm_can_create_private_channel_group
realm_can_create_web_public_channel_group realm_create_public_stream_policy realm_create_private_stream_policy
realm_create_web_public_stream_policy realm_invite_to_stream_policy realm_wildcard_mention_policy
realm_default_language realm_description realm_digest_emails_enabled realm_disallow_disposable_email_addresses
realm_email_changes_disabled realm_invite_required realm_invite_to_realm_policy
realm_create_multiuse_invite_group realm_move_messages_between_streams_policy realm_inline_image_preview
realm_inline_url_embed_preview realm_mandatory_topics realm_message_retention_days realm_name
realm_require_unique_names realm_name_changes_disabled realm_avatar_changes_disabled
realm_emails_restricted_to_domains realm_send_welcome_emails
realm_message_content_allowed_in_email_notifications realm_enable_spectator_access
realm_want_advertise_in_communities_directory realm_video_chat_provider realm_jitsi_server_url
realm_giphy_rating realm_waiting_period_threshold realm_digest_weekday realm_direct_message_initiator_group
realm_direct_message_permission_group realm_user_group_edit_policy realm_default_code_block_language
realm_message_content_delete_limit_seconds realm_authentication_methods realm_allow_message_editing
realm_edit_topic_policy realm_message_content_edit_limit_seconds
realm_move_messages_within_stream_limit_seconds realm_move_messages_between_streams_limit_seconds
realm_enable_read_receipts realm_icon_url realm_icon_source max_icon_file_size_mib realm_logo_url
realm_logo_source realm_night_logo_url realm_night_logo_source max_logo_file_size_mib realm_bot_domain
realm_uri realm_url realm_available_video_chat_providers realm_presence_disabled settings_send_digest_emails
realm_is_zephyr_mirror_realm realm_email_auth_enabled realm_password_auth_enabled
realm_push_notifications_enabled realm_push_notifications_enabled_end_timestamp realm_upload_quota_mib
realm_org_type realm_plan_type realm_enable_guest_user_indicator realm_can_access_all_users_group
zulip_plan_is_not_limited upgrade_text_for_wide_organization_logo realm_default_external_accounts
jitsi_server_url development_environment server_generation password_min_length password_min_guesses
giphy_rating_options max_file_upload_size_mib max_avatar_file_size_mib server_inline_image_preview
server_inline_url_embed_preview server_thumbnail_formats server_avatar_changes_disabled
server_name_changes_disabled server_needs_upgrade server_web_public_streams_enabled server_emoji_data_url
server_jitsi_server_url event_queue_longpoll_timeout_seconds realm_new_stream_announcements_stream_id
realm_signup_announcements_stream_id realm_zulip_update_announcements_stream_id realm_user_settings_defaults
realm_users realm_non_active_users avatar_source avatar_url_medium avatar_url can_create_streams
can_create_public_streams can_create_private_streams can_create_web_public_streams can_subscribe_other_users
can_invite_others_to_realm is_admin is_owner is_billing_admin is_moderator is_guest user_id email
delivery_email full_name cross_realm_bots server_supported_permission_settings`.split(/\s+/);

const ids = z.array(z.number().int().positive());

/** Schemas of the keys real clients (terminal, mobile) parse strictly on start-up. */
const registerSchema = z.object({
  queue_id: z.string(),
  last_event_id: z.literal(-1),
  zulip_feature_level: z.literal(283),
  zulip_version: z.string(),
  zulip_merge_base: z.string(),
  realm_users: z.array(userSchema),
  realm_non_active_users: z.array(userSchema),
  cross_realm_bots: z.array(userSchema.extend({ is_system_bot: z.literal(true).optional() })),
  subscriptions: z.array(subscriptionSchema),
  unsubscribed: z.array(subscriptionSchema),
  never_subscribed: z.array(streamSchema.extend({ subscribers: ids.optional() })),
  streams: z.array(streamSchema),
  // Default-stream objects are streams without `stream_weekly_traffic` (OpenAPI DefaultChannel).
  realm_default_streams: z.array(streamSchema.omit({ stream_weekly_traffic: true })),
  unread_msgs: z.strictObject({
    count: z.number().int(),
    pms: z.array(z.strictObject({ other_user_id: z.number().int(), sender_id: z.number().int(), unread_message_ids: ids })),
    streams: z.array(z.strictObject({ stream_id: z.number().int(), topic: z.string(), unread_message_ids: ids })),
    huddles: z.array(z.strictObject({ user_ids_string: z.string(), unread_message_ids: ids })),
    mentions: ids,
    old_unreads_missing: z.boolean(),
  }),
  starred_messages: ids,
  recent_private_conversations: z.array(z.strictObject({ max_message_id: z.number().int(), user_ids: ids })),
  max_message_id: z.number().int(),
  presences: z.record(z.string(), z.unknown()),
  server_timestamp: z.number(),
  presence_last_update_id: z.number().int(),
  user_settings: z.record(z.string(), z.unknown()),
  realm_user_settings_defaults: z.record(z.string(), z.unknown()),
  realm_user_groups: z.array(
    z.strictObject({
      id: z.number().int(),
      name: z.string(),
      description: z.string(),
      members: ids,
      direct_subgroup_ids: z.array(z.number().int()),
      is_system_group: z.boolean(),
      can_manage_group: z.number().int(),
      can_mention_group: z.number().int(),
    }),
  ),
  realm_emoji: z.record(z.string(), z.unknown()),
  user_topics: z.array(z.unknown()),
  muted_topics: z.array(z.tuple([z.string(), z.string(), z.number()])),
  muted_users: z.array(z.unknown()),
  user_status: z.record(z.string(), z.unknown()),
  custom_profile_fields: z.array(z.unknown()),
  custom_profile_field_types: z.record(z.string(), z.strictObject({ id: z.number().int(), name: z.string() })),
  drafts: z.array(z.unknown()),
  alert_words: z.array(z.string()),
  realm_name: z.string(),
  realm_url: z.string(),
  realm_uri: z.string(),
  max_stream_name_length: z.literal(60),
  max_topic_length: z.literal(60),
  max_message_length: z.literal(10000),
  realm_message_retention_days: z.number().int(),
  realm_waiting_period_threshold: z.number().int(),
  realm_allow_message_editing: z.boolean(),
  realm_message_content_edit_limit_seconds: z.number().int().nullable(),
  realm_mandatory_topics: z.boolean(),
  realm_presence_disabled: z.boolean(),
  server_presence_ping_interval_seconds: z.literal(60),
  server_presence_offline_threshold_seconds: z.literal(200),
  server_typing_started_expiry_period_milliseconds: z.number().int(),
  server_typing_stopped_wait_period_milliseconds: z.number().int(),
  server_typing_started_wait_period_milliseconds: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  is_admin: z.boolean(),
  avatar_url: z.string().nullable(),
});

async function register(user: TestUser, params: Record<string, unknown> = {}) {
  const res = await org.api(user, "POST", "/register", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("POST /register initial state", () => {
  it("has every OpenAPI key (plus the spec's hotspots) with the shapes clients parse", async () => {
    const body = await register(org.users.member);
    const missing = [...OPENAPI_KEYS, "hotspots"].filter((k) => !(k in body));
    expect(missing).toEqual([]);
    registerSchema.parse(body);
    expect(body).toMatchObject({
      user_id: org.users.member.id,
      email: org.users.member.email,
      delivery_email: org.users.member.email,
      full_name: "Max Member",
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      can_create_streams: true,
      can_subscribe_other_users: true,
      realm_name: "Test Organization",
      max_stream_name_length: 60,
      max_topic_length: 60,
      max_message_length: 10000,
      realm_message_retention_days: -1,
      queue_id: expect.any(String),
      max_message_id: -1,
      unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
      realm_emoji: {},
      muted_topics: [],
      user_topics: [],
    });
  });

  it("lists active users in realm_users and reports the caller's role", async () => {
    const body = await register(org.users.admin);
    const active = body.realm_users.map((u: { user_id: number }) => u.user_id).sort((a: number, b: number) => a - b);
    const seeded = Object.values(org.users).map((u) => u.id).sort((a, b) => a - b);
    expect(active).toEqual(expect.arrayContaining(seeded));
    expect(body.realm_non_active_users).toEqual([]);
    expect(body).toMatchObject({ is_admin: true, is_owner: false, can_create_web_public_streams: false });
    const guest = await register(org.users.guest, { fetch_event_types: ["realm_user"] });
    expect(guest).toMatchObject({ is_guest: true, can_create_streams: false, can_subscribe_other_users: false });
    const owner = await register(org.users.owner, { fetch_event_types: ["realm_user"] });
    expect(owner).toMatchObject({ is_owner: true, is_admin: true, can_create_web_public_streams: true });
  });

  it("uses client_gravatar (default true) for avatar URLs", async () => {
    const withDefault = await register(org.users.member, { fetch_event_types: ["realm_user"] });
    const me = withDefault.realm_users.find((u: { user_id: number }) => u.user_id === org.users.member.id);
    expect(me.avatar_url).toBeNull();
    const withUrls = await register(org.users.member, { fetch_event_types: ["realm_user"], client_gravatar: false });
    const me2 = withUrls.realm_users.find((u: { user_id: number }) => u.user_id === org.users.member.id);
    expect(me2.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  it("returns only the fetched types; fetch_event_types falls back to event_types", async () => {
    const realmOnly = await register(org.users.member, { fetch_event_types: ["realm"] });
    expect(realmOnly).toHaveProperty("realm_name");
    expect(realmOnly).toHaveProperty("max_stream_name_length", 60);
    expect(realmOnly).not.toHaveProperty("realm_users");
    expect(realmOnly).not.toHaveProperty("subscriptions");
    expect(realmOnly).toHaveProperty("queue_id");
    expect(realmOnly).toHaveProperty("zulip_feature_level", 283);

    const viaEventTypes = await register(org.users.member, { event_types: ["message"] });
    expect(viaEventTypes).toHaveProperty("max_message_id");
    expect(viaEventTypes).not.toHaveProperty("unread_msgs");
    expect(viaEventTypes).not.toHaveProperty("realm_name");

    const both = await register(org.users.member, { fetch_event_types: ["message", "update_message_flags"] });
    expect(both).toHaveProperty("unread_msgs");

    const topics = await register(org.users.member, { fetch_event_types: ["muted_topics", "user_topic"] });
    expect(topics).toHaveProperty("user_topics", []);
    expect(topics).not.toHaveProperty("muted_topics");
  });

  it("sends the legacy top-level settings only without user_settings_object", async () => {
    const legacy = await register(org.users.member, {
      fetch_event_types: ["user_settings", "update_display_settings", "update_global_notifications"],
    });
    expect(legacy).toMatchObject({ twenty_four_hour_time: false, enable_sounds: true, emojiset: "google" });
    expect(legacy.user_settings).toMatchObject({ twenty_four_hour_time: false, enable_sounds: true });
    const modern = await register(org.users.member, {
      fetch_event_types: ["user_settings", "update_display_settings", "update_global_notifications"],
      client_capabilities: { user_settings_object: true },
    });
    expect(modern).toHaveProperty("user_settings");
    expect(modern).not.toHaveProperty("twenty_four_hour_time");
    expect(modern).not.toHaveProperty("enable_sounds");
  });

  it("describes the system groups that the group-valued settings name", async () => {
    const body = await register(org.users.member, { fetch_event_types: ["realm", "realm_user_groups"] });
    const byName = Object.fromEntries(body.realm_user_groups.map((g: { name: string }) => [g.name, g]));
    expect(Object.keys(byName).sort()).toEqual([
      "role:administrators",
      "role:everyone",
      "role:fullmembers",
      "role:internet",
      "role:members",
      "role:moderators",
      "role:nobody",
      "role:owners",
    ]);
    expect(byName["role:owners"].members).toEqual([org.users.owner.id]);
    expect(byName["role:administrators"].direct_subgroup_ids).toEqual([byName["role:owners"].id]);
    expect(body.realm_can_create_public_channel_group).toBe(byName["role:members"].id);
    expect(body.realm_can_delete_any_message_group).toBe(systemGroupId(org.realm.id, "role:administrators"));
  });
});

describe("POST /register presence", () => {
  it("keys presences by email, or by user ID with slim_presence", async () => {
    const ping = await org.api(org.users.member2, "POST", "/users/me/presence", { status: "active" });
    expect(ping.status).toBe(200);
    const legacy = await register(org.users.member, { fetch_event_types: ["presence"] });
    expect(legacy.presences[org.users.member2.email]).toMatchObject({
      aggregated: { client: "website", status: "active" },
      website: { client: "website", status: "active", pushable: false },
    });
    const slim = await register(org.users.member, { fetch_event_types: ["presence"], slim_presence: true });
    expect(slim.presences[String(org.users.member2.id)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(slim.presence_last_update_id).toBeGreaterThan(0);
  });
});
