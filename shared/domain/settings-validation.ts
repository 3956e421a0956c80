import { USER_SETTING_DEFAULTS } from "./user-settings.js";

/*
 * The value rules of personal settings that are more than a type: time
 * zones, notification sounds, emoji sets, the email batching period
 * (Zulip's checks in `json_change_settings`, `zerver/views/user_settings.py`).
 * The parameter specs of `PATCH /settings` (`shared/http/user-settings-params.ts`)
 * apply them while parsing.
 */

/**
 * Whether a string names a time zone: an IANA zone or link that the
 * platform's ICU knows (`America/New_York`, `US/Pacific`, `UTC`), spelled
 * with its proper case (ICU would also take `america/new_york`; Zulip's
 * `zoneinfo` does not). The empty string is not a zone (Zulip refuses it too).
 */
export function isValidTimezone(tz: string): boolean {
  if (tz === "") return false;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    return !(resolved !== tz && resolved.toLowerCase() === tz.toLowerCase());
  } catch {
    return false;
  }
}

/** Sounds a user may pick for notifications, plus `none`. */
export const NOTIFICATION_SOUNDS: readonly string[] = [...USER_SETTING_DEFAULTS.available_notification_sounds];

/** Emoji sets (`google-blob` is Zulip's "Google classic"; https://zulip.com/api/update-settings lists it). */
export const EMOJISETS = ["google", "google-blob", "twitter", "text"] as const;

/** Longest email batching period a user may choose: one week, in seconds (Zulip's limit). */
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;
