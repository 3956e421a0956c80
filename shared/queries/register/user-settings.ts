import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { effectiveUserSettings, USER_SETTING_DEFAULTS } from "../../domain/user-settings.js";
import { LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS } from "../../events/delivery.js";

/** The caller's effective personal settings, `timezone` from the user record (where `PATCH /settings` keeps it). */
export function ownSettings(realm: RealmRecord, me: UserRecord): Record<string, unknown> {
  return { ...effectiveUserSettings(me.settings ?? {}), timezone: me.timezone };
}

/**
 * The `user_settings` fetch type: the `user_settings` object (feature
 * level 89), every personal setting with its effective value.
 */
export function userSettingsInitialState(realm: RealmRecord, me: UserRecord): Record<string, unknown> {
  return { user_settings: ownSettings(realm, me) };
}

/**
 * The deprecated top-level settings of the `update_display_settings` and
 * `update_global_notifications` fetch types, sent only to clients without
 * the `user_settings_object` capability (Zulip's `fetch_initial_state_data`).
 */
export function legacySettingsInitialState(
  realm: RealmRecord,
  me: UserRecord,
  want: { display: boolean; notifications: boolean },
): Record<string, unknown> {
  const settings = ownSettings(realm, me);
  const state: Record<string, unknown> = {};
  if (want.display) {
    for (const name of LEGACY_DISPLAY_SETTINGS) if (name in settings) state[name] = settings[name];
    state.emojiset_choices = settings.emojiset_choices;
    state.receives_typing_notifications = settings.receives_typing_notifications;
  }
  if (want.notifications) {
    for (const name of LEGACY_NOTIFICATION_SETTINGS) if (name in settings) state[name] = settings[name];
    state.available_notification_sounds = settings.available_notification_sounds;
  }
  return state;
}

/**
 * The `realm_user_settings_defaults` fetch type: the organization's
 * defaults for new users' settings (https://zulip.com/api/update-realm-user-settings-defaults).
 */
export function realmUserSettingsDefaultsInitialState(realm: RealmRecord): Record<string, unknown> {
  const defaults: Record<string, unknown> = { ...USER_SETTING_DEFAULTS, ...(realm.user_settings_defaults ?? {}) };
  delete defaults.timezone;
  return { realm_user_settings_defaults: defaults };
}
