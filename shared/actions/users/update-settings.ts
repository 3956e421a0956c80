import { hashPassword, verifyPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { HumanUsersOnlyError, JsonableError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { removeAllUserDrafts } from "../../data/drafts.js";
import { listRealmMembers } from "../../data/users.js";
import { writeUsers } from "../../data/user-writes.js";
import { apiEmail, canSeeDeliveryEmail } from "../../domain/email.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { USER_SETTING_DEFAULTS, type UserSettingName } from "../../domain/user-settings.js";
import { languageName } from "../../domain/languages.js";
import { checkEmailChangeRequest, doStartEmailChange } from "./email-change.js";
import { activeUserIds, notifyRealmUserUpdates, notifyUserSettingChanged, type UserSettingValue } from "./notify.js";
import { checkFullName, isStrongEnoughPassword } from "./validation.js";

/** What `PATCH /settings` may change; absent means unchanged. Values are already type-checked. */
export interface SettingsUpdate {
  full_name?: string;
  old_password?: string;
  new_password?: string;
  /** A new address: mailed a confirmation link, changed once it is followed. */
  email?: string;
  /**
   * Personal settings, each value already checked against the setting's
   * choices (the endpoint's parameter specs), in the order events should go out.
   */
  settings: Partial<Record<UserSettingName, UserSettingValue>>;
}

/**
 * Zulip's `@human_users_only`: bots may not call the endpoint.
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 */
export function checkHumanUser(caller: UserRecord): void {
  if (caller.is_bot) throw new HumanUsersOnlyError();
}

/**
 * `PATCH /settings` (https://zulip.com/api/update-settings; Zulip's
 * `json_change_settings`): the caller changes their own name, password or
 * personal settings, or starts a change of their email address (a link
 * mailed to the new address, `shared/actions/accounts/email-change.ts`).
 *
 * Everything is checked first, then one write: `full_name`, `timezone` and
 * the password hash are top-level fields of the user record (the wire user
 * object carries `timezone`; the setting is also kept in `settings` so the
 * effective-settings view stays complete); every other setting lives in the
 * record's `settings` map, which holds only values that differ from the
 * organization's defaults (`shared/domain/user-settings.ts`): setting a
 * value back to the default removes it.
 *
 * A name change is skipped silently when the organization disables name
 * changes and the caller is not an administrator (Zulip fails silently
 * there too; the UI does not offer it).
 *
 * Events, after the write: `realm_user` `update` `{user_id, full_name}` to the
 * realm's active users; one `user_settings` `update` `{property, value}`
 * (plus `language_name` for `default_language`) per changed setting to the
 * caller; for `timezone` also `realm_user` `{email, user_id, timezone}`, and
 * when `email_address_visibility` changes the API email, `realm_user`
 * `{user_id, new_email}`, to the active users; before that, for an
 * `email_address_visibility` change, `realm_user` `{user_id, delivery_email}`
 * to the active users who gain (the address) or lose (`null`) sight of the
 * real email ({@link notifyDeliveryEmailAccess}). Turning
 * `enable_drafts_synchronization` off deletes the caller's drafts (no event).
 * @throws JsonableError 400 `Wrong password!`, `New password is too weak!`, the
 *   name errors of `checkFullName`, the address errors of `checkEmailChangeRequest`
 * @throws RateLimitedError 429 past the email change limit
 */
export async function checkUpdateSettings(
  deps: Deps,
  realm: RealmRecord,
  caller: UserRecord,
  update: SettingsUpdate,
): Promise<void> {
  checkHumanUser(caller);
  const fields: Partial<UserRecord> = {};

  if (update.new_password !== undefined) {
    const ok = caller.password_hash !== null && (await verifyPassword(update.old_password ?? "", caller.password_hash));
    if (!ok) throw new JsonableError("Wrong password!");
    if (!isStrongEnoughPassword(update.new_password)) throw new JsonableError("New password is too weak!");
    fields.password_hash = await hashPassword(update.new_password, deps.config.PASSWORD_HASH_LOG2_N);
  }

  // Zulip checks (and rate-limits) an address change after the password and before the rest.
  const newEmail = update.email === undefined ? undefined : await checkEmailChangeRequest(deps, realm, caller, update.email);

  if (update.full_name !== undefined && update.full_name !== caller.full_name) {
    const nameChangesDisabled = realm.settings?.name_changes_disabled === true;
    if (!nameChangesDisabled || isRealmAdmin(caller)) {
      const name = checkFullName(update.full_name);
      if (name !== caller.full_name) fields.full_name = name;
    }
  }

  const own = caller.settings ?? {};
  const serverDefaults: Record<string, unknown> = USER_SETTING_DEFAULTS;
  const setSettings: Record<string, unknown> = {};
  const removeSettings: string[] = [];
  const changed: [string, UserSettingValue][] = [];
  for (const [name, value] of Object.entries(update.settings)) {
    if (value === undefined) continue;
    const fallback = serverDefaults[name];
    const current = name === "timezone" ? caller.timezone : name in own ? own[name] : fallback;
    if (value === current) continue;
    changed.push([name, value]);
    if (value === fallback) removeSettings.push(name);
    else setSettings[name] = value;
    if (name === "timezone" && typeof value === "string") fields.timezone = value;
  }

  if (Object.keys(fields).length === 0 && changed.length === 0) {
    if (newEmail !== undefined) await doStartEmailChange(deps, realm, caller, newEmail);
    return;
  }
  if (!(await writeUsers(deps, realm.id, [{ userId: caller.user_id, fields, setSettings, removeSettings }]))) {
    throw new Error("update settings: the caller's user item is gone");
  }

  if (newEmail !== undefined) await doStartEmailChange(deps, realm, caller, newEmail);

  // Zulip's do_change_user_setting: turning draft synchronization off deletes the stored drafts, without an event.
  if (changed.some(([name, value]) => name === "enable_drafts_synchronization" && value === false)) {
    await removeAllUserDrafts(deps, caller.user_id);
  }

  const after: UserRecord = { ...caller, ...fields, settings: { ...own, ...setSettings } };
  for (const name of removeSettings) delete after.settings[name];
  const visibilityChanged = changed.some(([name]) => name === "email_address_visibility");
  const needsMembers = fields.full_name !== undefined || fields.timezone !== undefined || visibilityChanged;
  const members = needsMembers ? await listRealmMembers(deps, realm.id) : [];
  const audience = activeUserIds(members);

  if (fields.full_name !== undefined) {
    await notifyRealmUserUpdates(deps, [{ user_id: caller.user_id, full_name: fields.full_name }], audience);
  }
  for (const [property, value] of changed) {
    const language = property === "default_language" && typeof value === "string" ? languageName(value) : undefined;
    await notifyUserSettingChanged(deps, caller.user_id, property, value, language);
    if (property === "timezone" && typeof value === "string") {
      await notifyRealmUserUpdates(
        deps,
        [{ email: apiEmail(after, realm, deps.config), user_id: caller.user_id, timezone: value }],
        audience,
      );
    }
    if (property === "email_address_visibility") {
      await notifyDeliveryEmailAccess(deps, realm, caller, after, members);
      const newEmail = apiEmail(after, realm, deps.config);
      if (newEmail !== apiEmail(caller, realm, deps.config)) {
        await notifyRealmUserUpdates(deps, [{ user_id: caller.user_id, new_email: newEmail }], audience);
      }
    }
  }
}

/**
 * After a change of `email_address_visibility`, tells each active user whose
 * view of the caller's real email changed (Zulip's
 * `send_delivery_email_update_events`): those who may now see it get
 * `realm_user` `update` `{user_id, delivery_email: <address>}`, those who no
 * longer may get `{user_id, delivery_email: null}`. The caller always sees
 * their own address, so never hears of it.
 */
async function notifyDeliveryEmailAccess(
  deps: Deps,
  realm: RealmRecord,
  before: UserRecord,
  after: UserRecord,
  members: UserRecord[],
): Promise<void> {
  const gained: number[] = [];
  const lost: number[] = [];
  for (const viewer of members) {
    if (!viewer.is_active) continue;
    const could = canSeeDeliveryEmail(viewer, before, realm);
    const can = canSeeDeliveryEmail(viewer, after, realm);
    if (can && !could) gained.push(viewer.user_id);
    if (could && !can) lost.push(viewer.user_id);
  }
  if (gained.length) {
    await notifyRealmUserUpdates(deps, [{ user_id: after.user_id, delivery_email: after.delivery_email }], gained);
  }
  if (lost.length) await notifyRealmUserUpdates(deps, [{ user_id: after.user_id, delivery_email: null }], lost);
}
