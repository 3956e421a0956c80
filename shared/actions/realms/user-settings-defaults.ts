import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { applyRealmChange } from "../../data/realms.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { USER_SETTING_DEFAULTS, type UserSettingName } from "../../domain/user-settings.js";
import { OrganizationAdministratorRequiredError } from "../../errors.js";
import type { UserSettingValue } from "../users/notify.js";
import { notifyRealmUserSettingsDefaultUpdate } from "./notify.js";

/**
 * `PATCH /realm/user_settings_defaults`
 * (https://zulip.com/api/update-realm-user-settings-defaults; Zulip's
 * `update_realm_user_settings_defaults`): an administrator changes the
 * personal settings new users start with. Existing users keep theirs: each
 * account got its own copy of the defaults when it was created.
 *
 * The realm record keeps only defaults that differ from the server's (one
 * UpdateItem, each setting its own document path); unchanged values are
 * skipped. The realm's active users then get one
 * `realm_user_settings_defaults` `update` `{property, value}` per changed
 * setting.
 * @param settings values already checked against each setting's choices, in request order
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 */
export async function checkUpdateRealmUserSettingsDefaults(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  settings: Partial<Record<UserSettingName, UserSettingValue>>,
): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const server: Record<string, unknown> = USER_SETTING_DEFAULTS;
  const current: Record<string, unknown> = { ...server, ...(realm.user_settings_defaults ?? {}) };
  const changed: [string, UserSettingValue][] = [];
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined || current[name] === value) continue;
    changed.push([name, value]);
    if (server[name] === value) remove.push(name);
    else set[name] = value;
  }
  if (changed.length === 0) return;
  await applyRealmChange(deps, realm.id, { userSettingsDefaults: { set, remove } });
  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  for (const [property, value] of changed) await notifyRealmUserSettingsDefaultUpdate(deps, property, value, audience);
}
