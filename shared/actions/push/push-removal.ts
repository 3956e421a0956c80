import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { getRealm } from "../../data/realms.js";
import { basePushPayload, removalMessageIds, removePushPayloads } from "../../domain/push-payload.js";
import { sendPushToUserDevices } from "./send-to-devices.js";

/** The job builder lives beside the collection (`shared/actions/messages/push-removals.ts`), which the read paths import without this module's push client. */
export { pushRemovalJob } from "../messages/push-removals.js";

/**
 * Clears notifications of read messages from a user's phones (Zulip's
 * `handle_remove_push_notification`): one `event: remove` notification with
 * the newest 200 IDs, through the push notification service. Nothing is
 * sent when push notifications are not configured or the user has no
 * device. The rows' flag was cleared by the producer, so a retried job
 * sends the same removal again, which the apps ignore.
 *
 * Cost: the realm's GetItem, then {@link sendPushToUserDevices}.
 */
export async function runPushRemoval(deps: Deps, p: JobPayload<"push_removal">): Promise<void> {
  if (!deps.pushBouncer) return;
  const realm = await getRealm(deps, p.realm_id);
  if (!realm || realm.deactivated) return;
  const ids = removalMessageIds(p.message_ids);
  await sendPushToUserDevices(deps, realm, p.user_id, removePushPayloads(basePushPayload(realm, p.user_id, deps.config), ids));
}
