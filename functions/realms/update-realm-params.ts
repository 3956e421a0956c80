import { z } from "zod";
import { LANGUAGES } from "../../shared/domain/languages.js";
import { param, type ParamSpec } from "../../shared/http/params.js";
import { MAX_MESSAGE_RETENTION_DAYS } from "../../shared/domain/stream-permissions.js";
import { VIDEO_CHAT_PROVIDERS } from "../../shared/domain/video-calls.js";

/*
 * The parameters of `PATCH /realm` (Zulip's `update_realm` in
 * `zerver/views/realm.py`, at feature level 283): each decoded and checked
 * as Zulip does. Checks that need stored state (owners-only settings,
 * channel and group IDs) belong to the action.
 */

const choice = (name: string, choices: readonly number[]) =>
  param
    .json(z.int().refine((v) => choices.includes(v), { message: `Invalid ${name}` }))
    .optional();
const bool = () => param.bool().optional();

/**
 * A message time limit: seconds > 0, or `"unlimited"` (stored as null).
 * Zulip wants the string JSON-encoded; the bare word is accepted too.
 */
const timeLimit = (name: string) =>
  param
    .jsonOrString(
      z.union([z.int(), z.string()]).transform((v, ctx) => {
        if (v === "unlimited") return null;
        if (typeof v === "number" && v > 0) return v;
        ctx.addIssue({ code: "custom", message: `Bad value for '${name}': ${v}` });
        return z.NEVER;
      }),
    )
    .optional();

/** A group-setting change (feature level 283): `{"new": <group id>, "old"?: <group id>}`, or a bare group ID. */
const groupChange = () =>
  param
    .json(
      z.union([
        z.int().transform((id) => ({ new: id, old: undefined as number | undefined })),
        z.strictObject({ new: z.int(), old: z.int().optional() }),
      ]),
    )
    .optional();

/** Zulip's organization types (`Realm.ORG_TYPES` ids). */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

/** Longest Jitsi server URL (Zulip's `JITSI_SERVER_URL_MAX_LENGTH`). */
const JITSI_SERVER_URL_MAX_LENGTH = 200;

/** Organization settings stored as they arrive (the endpoint's simple parameters). */
export const REALM_SETTING_PARAMS = {
  emails_restricted_to_domains: bool(),
  disallow_disposable_email_addresses: bool(),
  invite_required: bool(),
  require_unique_names: bool(),
  name_changes_disabled: bool(),
  email_changes_disabled: bool(),
  avatar_changes_disabled: bool(),
  inline_image_preview: bool(),
  inline_url_embed_preview: bool(),
  allow_message_editing: bool(),
  mandatory_topics: bool(),
  allow_edit_history: bool(),
  send_welcome_emails: bool(),
  digest_emails_enabled: bool(),
  message_content_allowed_in_email_notifications: bool(),
  enable_spectator_access: bool(),
  want_advertise_in_communities_directory: bool(),
  enable_read_receipts: bool(),
  enable_guest_user_indicator: bool(),
  presence_disabled: bool(),
  default_language: param
    .string(z.string().refine((v) => Object.hasOwn(LANGUAGES, v), { error: (i) => `Invalid language '${String(i.input)}'` }))
    .optional(),
  // A Pygments language name; bounded like a playground's language.
  default_code_block_language: param.string(z.string().max(40)).optional(),
  waiting_period_threshold: param.json(z.int().min(0)).optional(),
  message_content_edit_limit_seconds: timeLimit("message_content_edit_limit_seconds"),
  message_content_delete_limit_seconds: timeLimit("message_content_delete_limit_seconds"),
  move_messages_within_stream_limit_seconds: timeLimit("move_messages_within_stream_limit_seconds"),
  move_messages_between_streams_limit_seconds: timeLimit("move_messages_between_streams_limit_seconds"),
  message_retention_days: param
    .jsonOrString(
      z.union([z.number(), z.string()]).transform((v, ctx) => {
        if (v === "unlimited") return -1;
        if (typeof v === "number" && Number.isInteger(v) && v > 0 && v <= MAX_MESSAGE_RETENTION_DAYS) return v;
        ctx.addIssue({ code: "custom", message: `Bad value for 'message_retention_days': ${v}` });
        return z.NEVER;
      }),
    )
    .optional(),
  bot_creation_policy: choice("bot_creation_policy", [1, 2, 3]),
  invite_to_stream_policy: choice("invite_to_stream_policy", [1, 2, 3, 4]),
  invite_to_realm_policy: choice("invite_to_realm_policy", [1, 2, 3, 4, 5, 6]),
  create_public_stream_policy: choice("create_public_stream_policy", [1, 2, 3, 4]),
  create_private_stream_policy: choice("create_private_stream_policy", [1, 2, 3, 4]),
  create_web_public_stream_policy: choice("create_web_public_stream_policy", [2, 4, 6, 7]),
  add_custom_emoji_policy: choice("add_custom_emoji_policy", [1, 2, 3, 4]),
  user_group_edit_policy: choice("user_group_edit_policy", [1, 2, 3, 4]),
  delete_own_message_policy: choice("delete_own_message_policy", [1, 2, 3, 4, 5]),
  edit_topic_policy: choice("edit_topic_policy", [1, 2, 3, 4, 5, 6]),
  move_messages_between_streams_policy: choice("move_messages_between_streams_policy", [1, 2, 3, 4, 6]),
  wildcard_mention_policy: choice("wildcard_mention_policy", [1, 2, 3, 5, 6, 7]),
  digest_weekday: choice("digest_weekday", [0, 1, 2, 3, 4, 5, 6]),
  org_type: choice("org_type", ORG_TYPES),
  video_chat_provider: param
    .json(z.int().superRefine((v, ctx) => {
      // Every provider this server knows; `updateRealm` then refuses one not configured here.
      if (!Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === v)) ctx.addIssue({ code: "custom", message: `Invalid video_chat_provider ${v}` });
    }))
    .optional(),
  giphy_rating: param
    .json(z.int().superRefine((v, ctx) => {
      if (!(v >= 0 && v <= 5)) ctx.addIssue({ code: "custom", message: `Invalid giphy_rating ${v}` });
    }))
    .optional(),
  jitsi_server_url: param
    .jsonOrString(
      z.string().transform((v, ctx) => {
        if (v === "default") return null;
        if (v.length <= JITSI_SERVER_URL_MAX_LENGTH && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v)) return v;
        ctx.addIssue({ code: "custom", message: "jitsi_server_url is not an allowed_type" });
        return z.NEVER;
      }),
    )
    .optional(),
} satisfies Record<string, ParamSpec<unknown, false>>;

/** Channel-valued settings: a channel ID, or -1 for none. */
export const REALM_STREAM_SETTING_PARAMS = {
  new_stream_announcements_stream_id: param.int().optional(),
  signup_announcements_stream_id: param.int().optional(),
  zulip_update_announcements_stream_id: param.int().optional(),
};

/** Group-valued settings (https://zulip.com/api/group-setting-values). */
export const REALM_GROUP_SETTING_PARAMS = {
  can_access_all_users_group: groupChange(),
  can_create_private_channel_group: groupChange(),
  can_create_public_channel_group: groupChange(),
  can_create_web_public_channel_group: groupChange(),
  can_delete_any_message_group: groupChange(),
  create_multiuse_invite_group: groupChange(),
  direct_message_initiator_group: groupChange(),
  direct_message_permission_group: groupChange(),
};

/** Longest organization name and description (Zulip's `Realm.MAX_REALM_NAME_LENGTH`, `MAX_REALM_DESCRIPTION_LENGTH`). */
export const REALM_TEXT_PARAMS = {
  name: param.string(z.string().max(40)).optional(),
  description: param.string(z.string().max(1000)).optional(),
  // Only null is accepted: clearing the date converts a demo organization into a normal one.
  demo_organization_scheduled_deletion_date: param
    .json(z.null({ error: "Invalid demo_organization_scheduled_deletion_date" }))
    .optional(),
};
