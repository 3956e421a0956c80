import type { Deps } from "../../deps.js";
import { setRealmPushStatus } from "../../data/realm-push.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { notifyRealmUpdate } from "../realms/notify.js";

/**
 * Records what the push notification service said of an organization's
 * plan (Zulip's `do_set_realm_property(realm, "push_notifications_enabled")`
 * and `do_set_push_notifications_enabled_end_timestamp`), and tells the
 * organization's clients with `realm` `update` events for the properties
 * that changed (`push_notifications_enabled`,
 * `push_notifications_enabled_end_timestamp`), as register reports them
 * (`realm_push_notifications_enabled…`).
 *
 * Cost: one UpdateItem; a change adds the realm's user Query and the events.
 * @param endTimestamp UNIX seconds, or null
 */
export async function doSetRealmPushStatus(deps: Deps, realmId: number, enabled: boolean, endTimestamp: number | null): Promise<void> {
  const before = await setRealmPushStatus(deps, realmId, enabled, endTimestamp);
  const enabledChanged = before.enabled !== enabled;
  const endChanged = before.endTimestamp !== endTimestamp;
  if (!enabledChanged && !endChanged) return;
  const audience = (await listActiveRealmUsers(deps, realmId)).map((u) => u.user_id);
  if (enabledChanged) await notifyRealmUpdate(deps, "push_notifications_enabled", enabled, audience);
  if (endChanged) await notifyRealmUpdate(deps, "push_notifications_enabled_end_timestamp", endTimestamp, audience);
}
