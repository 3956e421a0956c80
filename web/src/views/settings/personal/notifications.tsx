import type { SectionProps } from "../types.js";
import { SettingSelect, SettingsGroup, SettingToggle } from "./controls.js";

/** The choices of `email_notifications_batching_period_seconds` Zulip's settings offer. */
const BATCHING_PERIODS = [
  { value: 120, label: "2 minutes" },
  { value: 300, label: "5 minutes" },
  { value: 600, label: "10 minutes" },
  { value: 1800, label: "30 minutes" },
  { value: 3600, label: "1 hour" },
  { value: 21600, label: "6 hours" },
  { value: 86400, label: "1 day" },
  { value: 259200, label: "3 days" },
  { value: 604800, label: "1 week" },
];

const SOUND_NAMES: Record<string, string> = { none: "None", zulip: "Zulip", ding: "Ding", chime: "Chime" };

/**
 * "Notifications" (`#settings/notifications`,
 * https://zulip.com/help/channel-notifications,
 * https://zulip.com/help/dm-mention-alert-notifications,
 * https://zulip.com/help/email-notifications): desktop, sound, email and
 * mobile notifications for channels, followed topics and direct messages
 * and mentions, the notification sound, wildcard mentions and the email
 * batching period, each saved with `PATCH /settings`.
 */
export function NotificationsSection({ chat, state }: SectionProps) {
  const settings = state.userSettings;
  const sounds = ((settings.available_notification_sounds as string[] | undefined) ?? ["zulip", "ding", "chime"]).filter((s) => s !== "none");
  const soundChoices = [{ value: "none", label: "None" }, ...sounds.map((s) => ({ value: s, label: SOUND_NAMES[s] ?? s }))];
  const toggle = (name: string, label: string) => <SettingToggle chat={chat} settings={settings} name={name} label={label} />;
  return (
    <div>
      <h2 tabIndex={-1}>Notifications</h2>
      <div class="settings-form">
        <SettingsGroup title="Channels">
          {toggle("enable_stream_desktop_notifications", "Channel messages: desktop notifications")}
          {toggle("enable_stream_audible_notifications", "Channel messages: sound")}
          {toggle("enable_stream_push_notifications", "Channel messages: mobile notifications")}
          {toggle("enable_stream_email_notifications", "Channel messages: email notifications")}
        </SettingsGroup>
        <SettingsGroup title="Followed topics">
          {toggle("enable_followed_topic_desktop_notifications", "Followed topics: desktop notifications")}
          {toggle("enable_followed_topic_audible_notifications", "Followed topics: sound")}
          {toggle("enable_followed_topic_push_notifications", "Followed topics: mobile notifications")}
          {toggle("enable_followed_topic_email_notifications", "Followed topics: email notifications")}
          {toggle("enable_followed_topic_wildcard_mentions_notify", "Followed topics: notify for @all mentions")}
        </SettingsGroup>
        <SettingsGroup title="Direct messages, mentions and alerts">
          {toggle("enable_desktop_notifications", "DMs, mentions and alerts: desktop notifications")}
          {toggle("enable_sounds", "DMs, mentions and alerts: sound")}
          {toggle("enable_offline_push_notifications", "DMs, mentions and alerts: mobile notifications")}
          {toggle("enable_offline_email_notifications", "DMs, mentions and alerts: email notifications")}
          {toggle("wildcard_mentions_notify", "Notify for @all, @everyone and @channel mentions")}
          {toggle("pm_content_in_desktop_notifications", "Include the content of direct messages in desktop notifications")}
        </SettingsGroup>
        <SettingsGroup title="Sound and email">
          <SettingSelect chat={chat} settings={settings} name="notification_sound" label="Notification sound" choices={soundChoices} />
          <SettingSelect
            chat={chat}
            settings={settings}
            name="email_notifications_batching_period_seconds"
            label="Delay before sending message notification emails"
            choices={BATCHING_PERIODS}
          />
          {toggle("message_content_in_email_notifications", "Include message content in message notification emails")}
          {toggle("enable_digest_emails", "Send digest emails when I'm away")}
          {toggle("enable_login_emails", "Send me an email when I log in")}
        </SettingsGroup>
      </div>
    </div>
  );
}
