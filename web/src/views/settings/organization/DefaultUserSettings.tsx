import { savedValues, type SettingField } from "./form-logic.js";
import { SettingsForm } from "./SettingsForm.js";
import type { SectionProps } from "../types.js";

const PREFERENCES: SettingField[] = [
  { name: "color_scheme", label: "Theme", kind: "select", options: [[1, "Automatic"], [3, "Light"], [2, "Dark"]] },
  { name: "emojiset", label: "Emoji set", kind: "select", options: [["google", "Google"], ["twitter", "Twitter"], ["text", "Plain text"]] },
  { name: "web_home_view", label: "Home view", kind: "select", options: [["inbox", "Inbox"], ["recent_topics", "Recent conversations"], ["all_messages", "Combined feed"]] },
  { name: "twenty_four_hour_time", label: "Use 24-hour time", kind: "bool" },
  { name: "enter_sends", label: "Enter sends the message", kind: "bool" },
  { name: "display_emoji_reaction_users", label: "Show who reacted in emoji reactions", kind: "bool" },
];

const PRIVACY: SettingField[] = [
  {
    name: "email_address_visibility",
    label: "Who can see the email addresses of new users",
    kind: "select",
    options: [[1, "Admins, moderators, members and guests"], [2, "Members"], [5, "Admins and moderators"], [3, "Admins only"], [4, "Nobody"]],
  },
  { name: "send_read_receipts", label: "Let others see when they have read messages", kind: "bool" },
  { name: "send_private_typing_notifications", label: "Let recipients see when they are typing direct messages", kind: "bool" },
  { name: "send_stream_typing_notifications", label: "Let recipients see when they are typing channel messages", kind: "bool" },
];

const NOTIFICATIONS: SettingField[] = [
  { name: "enable_stream_desktop_notifications", label: "Desktop notifications for channel messages", kind: "bool" },
  { name: "enable_stream_audible_notifications", label: "Audible notifications for channel messages", kind: "bool" },
  { name: "enable_desktop_notifications", label: "Desktop notifications for direct messages and mentions", kind: "bool" },
  { name: "enable_sounds", label: "Audible notifications for direct messages and mentions", kind: "bool" },
  { name: "wildcard_mentions_notify", label: "Notify on @all/@everyone mentions", kind: "bool" },
  { name: "enable_offline_email_notifications", label: "Email notifications when offline", kind: "bool" },
  { name: "enable_offline_push_notifications", label: "Mobile notifications when offline", kind: "bool" },
  { name: "enable_digest_emails", label: "Send digest emails when away", kind: "bool" },
];

/**
 * `#organization/default-user-settings` (https://zulip.com/help/configure-default-new-user-settings):
 * the settings new users start with, from register's `realm_user_settings_defaults`
 * (kept live by `realm_user_settings_defaults` events), saved with
 * `PATCH /realm/user_settings_defaults`.
 */
export function DefaultUserSettings(props: SectionProps) {
  const defaults = (props.state.realmSettings.realm_user_settings_defaults as Record<string, unknown> | undefined) ?? {};
  const groups: [string, SettingField[]][] = [
    ["Preferences", PREFERENCES],
    ["Privacy", PRIVACY],
    ["Notifications", NOTIFICATIONS],
  ];
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Default user settings</h2>
      <p>New users start with these settings; each person can change them later.</p>
      {groups.map(([title, fields]) => (
        <SettingsForm
          key={title}
          title={title}
          fields={fields}
          saved={savedValues(fields, defaults)}
          state={props.state}
          save={(params) => props.chat.api.call("PATCH", "/realm/user_settings_defaults", params)}
        />
      ))}
    </div>
  );
}
