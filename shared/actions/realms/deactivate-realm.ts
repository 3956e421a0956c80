import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { applyRealmChange } from "../../data/realms.js";
import { deleteRealmSessionItems } from "../../data/sessions.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isRealmOwner } from "../../domain/roles.js";
import { OrganizationOwnerRequiredError } from "../../errors.js";
import { notifyRealmDeactivated } from "./notify.js";

/**
 * Deactivates an organization (Zulip's `do_deactivate_realm`): from then on
 * every request its users make is refused with 401 "This organization has been deactivated"
 * (`shared/auth/authenticate.ts`) and its browser sessions are deleted; its
 * data stays. Its active users get `realm` `deactivated` `{realm_id}` after
 * the write, which ends their open long polls. Deactivating a deactivated organization does nothing.
 * @returns false when the organization was already deactivated
 */
export async function doDeactivateRealm(deps: Deps, realm: RealmRecord): Promise<boolean> {
  if (realm.deactivated) return false;
  await applyRealmChange(deps, realm.id, { fields: { deactivated: true } });
  // As Zulip's `do_deactivate_realm` (`delete_realm_user_sessions`): every browser of the organization is logged out.
  await deleteRealmSessionItems(deps, realm.id);
  const audience = (await listActiveRealmUsers(deps, realm.id)).map((u) => u.user_id);
  await notifyRealmDeactivated(deps, realm.id, audience);
  return true;
}

/**
 * Reactivates a deactivated organization (Zulip's `do_reactivate_realm`,
 * there reached through an emailed link; here through the management CLI):
 * its users' credentials work again. No event: nobody can be listening.
 * @returns false when the organization was not deactivated
 */
export async function doReactivateRealm(deps: Deps, realm: RealmRecord): Promise<boolean> {
  if (!realm.deactivated) return false;
  await applyRealmChange(deps, realm.id, { fields: { deactivated: false } });
  return true;
}

/**
 * `POST /realm/deactivate` (Zulip's `deactivate_realm`): an owner
 * deactivates their organization. `deletion_delay_days` is accepted and
 * not acted on: this server never deletes a deactivated organization's data.
 * @throws OrganizationOwnerRequiredError 400 `Must be an organization owner`
 */
export async function checkDeactivateRealm(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<void> {
  if (!isRealmOwner(user)) throw new OrganizationOwnerRequiredError();
  await doDeactivateRealm(deps, realm);
}
