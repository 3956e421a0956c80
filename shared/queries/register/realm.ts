import { API_PREFIX } from "../../routing.js";
import { realmIconUrl, realmLogoUrl } from "../../domain/avatar.js";
import type { Config } from "../../config.js";
import type { RealmRecord } from "../../data/records/realm.js";

import { realmHost, realmUrl } from "../../domain/email.js";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_GROUP_SETTINGS_REQUIRING_SYSTEM_GROUP, REALM_LIMITS, realmSettings } from "../../domain/realm-settings.js";
import { escapeHtmlNumeric } from "../../html.js";
import { serverThumbnailFormats } from "../../domain/thumbnails.js";
import { availableVideoChatProviders } from "../../domain/video-calls.js";
import { AUTHENTICATION_METHODS, demoOrganizationFields } from "../server-settings.js";

/** Presence protocol timing (Zulip's PRESENCE_PING_INTERVAL_SECS and OFFLINE_THRESHOLD_SECS). */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 200;

/** Typing protocol timing in milliseconds (Zulip's TYPING_* settings, feature level 204). */
export const TYPING_STARTED_EXPIRY_PERIOD_MS = 45_000;
export const TYPING_STOPPED_WAIT_PERIOD_MS = 12_000;
export const TYPING_STARTED_WAIT_PERIOD_MS = 30_000;

const GIPHY_RATING_OPTIONS = {
  disabled: { name: "GIPHY integration disabled", id: 0 },
  y: { name: "Allow GIFs rated Y (Very young audience)", id: 1 },
  g: { name: "Allow GIFs rated G (General audience)", id: 2 },
  pg: { name: "Allow GIFs rated PG (Parental guidance)", id: 3 },
  "pg-13": { name: "Allow GIFs rated PG-13 (Parental guidance - under 13)", id: 4 },
  r: { name: "Allow GIFs rated R (Restricted)", id: 5 },
};

const DEFAULT_EXTERNAL_ACCOUNTS = {
  github: {
    name: "GitHub",
    text: "GitHub",
    hint: "Enter your GitHub username",
    url_pattern: "https://github.com/%(username)s",
  },
  twitter: {
    name: "Twitter",
    text: "Twitter",
    hint: "Enter your Twitter username",
    url_pattern: "https://twitter.com/%(username)s",
  },
};

const DEFAULT_JITSI_SERVER_URL = "https://meet.jit.si";

/**
 * One entry of `server_supported_permission_settings`: the setting's default
 * group, whether it must name a system group, and (user-group settings) the
 * value system groups hold.
 */
function permissionSetting(defaultGroup: string, idFieldName: string, requireSystemGroup = false, defaultForSystemGroups: string | null = null) {
  return {
    require_system_group: requireSystemGroup,
    allow_internet_group: false,
    allow_owners_group: true,
    allow_nobody_group: true,
    allow_everyone_group: true,
    default_group_name: defaultGroup,
    id_field_name: idFieldName,
    default_for_system_groups: defaultForSystemGroups,
    allowed_system_groups: [],
  };
}

/** When this server process started (Zulip's `server_generation`, UNIX seconds). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/**
 * The `realm` fetch type of `POST /register` (OpenAPI `register-queue`,
 * every key "present if `realm` is present in `fetch_event_types`"): the
 * organization's settings as `realm_*` keys plus the server's limits and
 * capabilities. Pure: no reads beyond the realm record already loaded.
 * @param longpollTimeoutSeconds the `event_queue_longpoll_timeout_seconds` to report
 */
export function realmInitialState(
  realm: RealmRecord,
  config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME" | "MAX_FILE_UPLOAD_SIZE_MIB" | "BIGBLUEBUTTON_URL" | "BIGBLUEBUTTON_SECRET">,
  longpollTimeoutSeconds: number,
): Record<string, unknown> {
  const settings = realmSettings(realm);
  const url = realmUrl(realm, config);
  const state: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) state[`realm_${key}`] = value;
  const authMethods: Record<string, { enabled: boolean; available: boolean; unavailable_reason?: string }> = {
    Email: { enabled: AUTHENTICATION_METHODS.email, available: true },
  };
  return {
    ...state,
    realm_name: realm.name,
    realm_description: realm.description ? `<p>${escapeHtmlNumeric(realm.description)}</p>` : "",
    realm_date_created: realm.date_created,
    ...demoOrganizationFields(realm),
    realm_authentication_methods: authMethods,
    realm_icon_url: realmIconUrl(realm),
    realm_icon_source: realm.icon_source ?? "G",
    realm_logo_url: realmLogoUrl(realm, false, url),
    realm_logo_source: realm.logo_source ?? "D",
    realm_night_logo_url: realmLogoUrl(realm, true, url),
    realm_night_logo_source: realm.night_logo_source ?? "D",
    realm_bot_domain: realmHost(realm, config).replace(/:\d+$/, ""),
    realm_uri: url,
    realm_url: url,
    realm_available_video_chat_providers: availableVideoChatProviders(config),
    realm_is_zephyr_mirror_realm: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    // What the push notification service last said of the organization's plan (`shared/actions/push/realm-push-status.ts`).
    realm_push_notifications_enabled: realm.push_notifications_enabled ?? false,
    realm_push_notifications_enabled_end_timestamp: realm.push_notifications_enabled_end_timestamp ?? null,
    realm_upload_quota_mib: realm.upload_quota_mib ?? null,
    realm_plan_type: 1,
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
    settings_send_digest_emails: true,
    // A request cannot carry more than the upload limit (a Lambda payload), whatever Zulip's 5 MiB.
    max_icon_file_size_mib: config.MAX_FILE_UPLOAD_SIZE_MIB,
    max_logo_file_size_mib: config.MAX_FILE_UPLOAD_SIZE_MIB,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: "",
    jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
    server_jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
    development_environment: false,
    server_generation: SERVER_GENERATION,
    password_min_length: 6,
    password_min_guesses: 10_000,
    giphy_rating_options: GIPHY_RATING_OPTIONS,
    max_file_upload_size_mib: config.MAX_FILE_UPLOAD_SIZE_MIB,
    max_avatar_file_size_mib: config.MAX_FILE_UPLOAD_SIZE_MIB,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_thumbnail_formats: serverThumbnailFormats(),
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: false,
    server_emoji_data_url: `${url}${API_PREFIX}/static/generated/emoji/emoji_api.json`,
    server_supported_permission_settings: {
      realm: Object.fromEntries(
        Object.entries(REALM_GROUP_SETTING_DEFAULTS).map(([k, g]) => [
          k,
          permissionSetting(g, `realm_${k}`, REALM_GROUP_SETTINGS_REQUIRING_SYSTEM_GROUP.has(k)),
        ]),
      ),
      stream: { can_remove_subscribers_group: permissionSetting("role:administrators", "can_remove_subscribers_group_id") },
      group: {
        can_manage_group: permissionSetting("role:nobody", "can_manage_group_id", false, "role:nobody"),
        can_mention_group: permissionSetting("role:everyone", "can_mention_group_id", false, "role:nobody"),
      },
    },
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds,
    ...REALM_LIMITS,
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
    server_typing_started_expiry_period_milliseconds: TYPING_STARTED_EXPIRY_PERIOD_MS,
    server_typing_stopped_wait_period_milliseconds: TYPING_STOPPED_WAIT_PERIOD_MS,
    server_typing_started_wait_period_milliseconds: TYPING_STARTED_WAIT_PERIOD_MS,
  };
}
