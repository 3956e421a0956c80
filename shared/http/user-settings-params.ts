import { z } from "zod";
import { LANGUAGES } from "../domain/languages.js";
import {
  EMOJISETS,
  isValidTimezone,
  MAX_EMAIL_BATCHING_PERIOD_SECONDS,
  NOTIFICATION_SOUNDS,
} from "../domain/settings-validation.js";
import { EmailVisibility } from "../domain/email.js";
import type { UserSettingName } from "../domain/user-settings.js";
import { param, type ParamSpec } from "./params.js";

const oneOf = <T extends string | number>(name: string, choices: readonly T[]): z.ZodType<T> => {
  const base: z.ZodType<unknown> = choices.some((c) => typeof c === "number") ? z.int() : z.string();
  return base.refine((v) => (choices as readonly unknown[]).includes(v), { message: `Invalid ${name}` }) as z.ZodType<T>;
};

const intIn = (name: string, choices: readonly number[]) => param.json(oneOf(name, choices)).optional();
const stringIn = (name: string, choices: readonly string[]) => param.string(oneOf(name, choices)).optional();
const bool = () => param.bool().optional();

/**
 * The personal settings `PATCH /settings` accepts
 * (https://zulip.com/api/update-settings at feature level 283), each with
 * Zulip's decoding and checks: booleans and integers are JSON, strings raw;
 * enumerations answer `Invalid <name>`.
 * `PATCH /realm/user_settings_defaults` takes the same settings and may
 * reuse this table.
 */
export const USER_SETTING_PARAMS = {
  twenty_four_hour_time: bool(),
  web_mark_read_on_scroll_policy: intIn("web_mark_read_on_scroll_policy", [1, 2, 3]),
  web_channel_default_view: intIn("web_channel_default_view", [1, 2]),
  starred_message_counts: bool(),
  receives_typing_notifications: bool(),
  fluid_layout_width: bool(),
  high_contrast_mode: bool(),
  color_scheme: intIn("color_scheme", [1, 2, 3]),
  web_font_size_px: param.int().optional(),
  web_line_height_percent: param.int().optional(),
  translate_emoticons: bool(),
  display_emoji_reaction_users: bool(),
  default_language: stringIn("default_language", Object.keys(LANGUAGES)),
  web_home_view: stringIn("web_home_view", ["recent_topics", "inbox", "all_messages"]),
  web_escape_navigates_to_home_view: bool(),
  left_side_userlist: bool(),
  emojiset: stringIn("emojiset", EMOJISETS),
  demote_inactive_streams: intIn("demote_inactive_streams", [1, 2, 3]),
  web_stream_unreads_count_display_policy: intIn("web_stream_unreads_count_display_policy", [1, 2, 3]),
  timezone: param.string(z.string().refine(isValidTimezone, { message: "Invalid timezone" })).optional(),
  email_notifications_batching_period_seconds: param
    .json(
      z.int().superRefine((v, ctx) => {
        if (v <= 0 || v > MAX_EMAIL_BATCHING_PERIOD_SECONDS) {
          ctx.addIssue({ code: "custom", message: `Invalid email batching period: ${v} seconds` });
        }
      }),
    )
    .optional(),
  enable_drafts_synchronization: bool(),
  enable_stream_desktop_notifications: bool(),
  enable_stream_email_notifications: bool(),
  enable_stream_push_notifications: bool(),
  enable_stream_audible_notifications: bool(),
  wildcard_mentions_notify: bool(),
  enable_followed_topic_desktop_notifications: bool(),
  enable_followed_topic_email_notifications: bool(),
  enable_followed_topic_push_notifications: bool(),
  enable_followed_topic_audible_notifications: bool(),
  enable_followed_topic_wildcard_mentions_notify: bool(),
  notification_sound: param
    .string(
      z.string().superRefine((v, ctx) => {
        if (!NOTIFICATION_SOUNDS.includes(v) && v !== "none") {
          ctx.addIssue({ code: "custom", message: `Invalid notification sound '${v}'` });
        }
      }),
    )
    .optional(),
  enable_desktop_notifications: bool(),
  enable_sounds: bool(),
  enable_offline_email_notifications: bool(),
  enable_offline_push_notifications: bool(),
  enable_online_push_notifications: bool(),
  enable_digest_emails: bool(),
  enable_login_emails: bool(),
  enable_marketing_emails: bool(),
  message_content_in_email_notifications: bool(),
  pm_content_in_desktop_notifications: bool(),
  // Four choices since feature level 227 (2 = DMs, mentions and followed topics).
  desktop_icon_count_display: intIn("desktop_icon_count_display", [1, 2, 3, 4]),
  realm_name_in_email_notifications_policy: intIn("realm_name_in_email_notifications_policy", [1, 2, 3]),
  automatically_follow_topics_policy: intIn("automatically_follow_topics_policy", [1, 2, 3, 4]),
  automatically_unmute_topics_in_muted_streams_policy: intIn(
    "automatically_unmute_topics_in_muted_streams_policy",
    [1, 2, 3, 4],
  ),
  automatically_follow_topics_where_mentioned: bool(),
  presence_enabled: bool(),
  enter_sends: bool(),
  send_private_typing_notifications: bool(),
  send_stream_typing_notifications: bool(),
  send_read_receipts: bool(),
  // No `allow_private_data_export`: it is newer than feature level 283 (absent from the
  // contract's update-settings), so it is reported in `ignored_parameters_unsupported`.
  user_list_style: intIn("user_list_style", [1, 2, 3]),
  web_animate_image_previews: stringIn("web_animate_image_previews", ["always", "on_hover", "never"]),
  email_address_visibility: intIn("email_address_visibility", Object.values(EmailVisibility)),
  web_navigate_to_sent_message: bool(),
  dense_mode: bool(),
} satisfies Partial<Record<UserSettingName, ParamSpec<unknown, false>>>;
