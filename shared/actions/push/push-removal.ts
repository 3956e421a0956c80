import type { Deps } from "../../deps.js";
import type { JobOf, JobPayload } from "../../deferred/jobs.js";
import { getRealm } from "../../data/realms.js";
import { basePushPayload, removalMessageIds, removePushPayloads } from "../../domain/push-payload.js";
import { sendPushToUserDevices } from "./send-to-devices.js";

/**
 * The `push_removal` job of messages that had a notification on the user's
 * phone and were read or deleted, or undefined when there are none.
 * Producers collect the IDs of rows whose `active_mobile_push_notification`
 * flag they cleared (`shared/actions/messages/`).
 */
export function pushRemovalJob(realmId: number, userId: number, messageIds: readonly number[]): JobOf<"push_removal"> | undefined {
  if (messageIds.length === 0) return undefined;
  return { kind: "push_removal", payload: { realm_id: realmId, user_id: userId, message_ids: removalMessageIds(messageIds) } };
}

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
