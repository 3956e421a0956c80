/**
 * Personal settings and their server defaults (Zulip's `user_settings`
 * object of `POST /register`, and `PATCH /settings`). A user record stores
 * only the settings that differ from the values here; a new user's record
 * starts with the organization's defaults (`realm_user_settings_defaults`)
 * copied in.
 */
export const USER_SETTING_DEFAULTS = {
  twenty_four_hour_time: false,
  dense_mode: true,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_navigate_to_sent_message: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 14,
  web_line_height_percent: 122,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: "en",
  web_home_view: "inbox",
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: "google",
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_animate_image_previews: "on_hover",
  web_stream_unreads_count_display_policy: 2,
  timezone: "",
  enter_sends: false,
  enable_drafts_synchronization: true,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: "zulip",
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  presence_enabled: true,
  available_notification_sounds: ["zulip", "ding", "chime", "none"],
  emojiset_choices: [
    { key: "google", text: "Google" },
    { key: "twitter", text: "Twitter" },
    { key: "text", text: "Plain text" },
  ],
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  email_address_visibility: 1,
} as const satisfies Record<string, unknown>;

export type UserSettingName = keyof typeof USER_SETTING_DEFAULTS;

/**
 * The effective personal settings of a user: own values over the server
 * defaults. A new user's record starts with a copy of the organization's
 * defaults (Zulip copies `RealmUserDefault` into the new `UserProfile`), so
 * a later change of those defaults never changes an existing user.
 */
export function effectiveUserSettings(own: Record<string, unknown>): Record<string, unknown> {
  return { ...USER_SETTING_DEFAULTS, ...own };
}
