import type { SectionProps } from "../types.js";
import { COLOR_SCHEME } from "../../../model/theme.js";
import { SettingSelect, SettingsGroup, SettingToggle } from "./controls.js";
import { languageChoices } from "./languages.js";

const THEMES = [
  { value: COLOR_SCHEME.automatic, label: "Automatic (follows system settings)" },
  { value: COLOR_SCHEME.dark, label: "Dark" },
  { value: COLOR_SCHEME.light, label: "Light" },
];

const TIME_FORMATS = [
  { value: "false", label: "12-hour clock (5:00 PM)" },
  { value: "true", label: "24-hour clock (17:00)" },
];

const HOME_VIEWS = [
  { value: "inbox", label: "Inbox" },
  { value: "recent_topics", label: "Recent conversations" },
  { value: "all_messages", label: "Combined feed" },
];

const EMOJI_SETS = [
  { value: "google", label: "Google" },
  { value: "twitter", label: "Twitter" },
  { value: "text", label: "Plain text" },
];

const MARK_READ_ON_SCROLL = [
  { value: 1, label: "Always" },
  { value: 2, label: "Only in conversation views" },
  { value: 3, label: "Never" },
];

/**
 * "Preferences" (`#settings/preferences`, https://zulip.com/help/dark-theme,
 * https://zulip.com/help/change-the-time-format,
 * https://zulip.com/help/configure-home-view, …): theme (applied at once,
 * model/theme.ts), language, time format, home view, emoji set and the
 * common reading and composing switches, each saved with `PATCH /settings`.
 */
export function PreferencesSection({ chat, state }: SectionProps) {
  const settings = state.userSettings;
  return (
    <div>
      <h2 tabIndex={-1}>Preferences</h2>
      <div class="settings-form">
        <SettingsGroup title="General">
          <SettingSelect chat={chat} settings={settings} name="color_scheme" label="Theme" choices={THEMES} />
          <SettingSelect chat={chat} settings={settings} name="default_language" label="Language" choices={languageChoices()} />
          <SettingSelect
            chat={chat}
            settings={settings}
            name="twenty_four_hour_time"
            label="Time format"
            choices={TIME_FORMATS}
            decode={(v) => String(v === true)}
            encode={(v) => v === "true"}
          />
          <SettingSelect chat={chat} settings={settings} name="web_home_view" label="Home view" choices={HOME_VIEWS} />
          <SettingSelect chat={chat} settings={settings} name="emojiset" label="Emoji theme" choices={EMOJI_SETS} />
          <SettingToggle chat={chat} settings={settings} name="fluid_layout_width" label="Use full width on wide screens" />
          <SettingToggle chat={chat} settings={settings} name="dense_mode" label="Compact mode" />
          <SettingToggle chat={chat} settings={settings} name="high_contrast_mode" label="High contrast mode" />
        </SettingsGroup>
        <SettingsGroup title="Reading and composing">
          <SettingToggle chat={chat} settings={settings} name="enter_sends" label="Enter sends the message (Ctrl+Enter makes a new line)" />
          <SettingSelect chat={chat} settings={settings} name="web_mark_read_on_scroll_policy" label="Mark messages as read on scroll" choices={MARK_READ_ON_SCROLL} />
          <SettingToggle chat={chat} settings={settings} name="starred_message_counts" label="Show counts for starred messages" />
          <SettingToggle chat={chat} settings={settings} name="translate_emoticons" label="Convert emoticons before sending (:) becomes 😃)" />
          <SettingToggle chat={chat} settings={settings} name="display_emoji_reaction_users" label="Display names of reacting users when few users have reacted" />
          <SettingToggle chat={chat} settings={settings} name="web_escape_navigates_to_home_view" label="Escape key navigates to home view" />
        </SettingsGroup>
      </div>
    </div>
  );
}
