import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { deleteAllPushDevices } from "../../data/push-devices.js";
import { getRealm } from "../../data/realms.js";
import { bouncerIdentity } from "./send-to-devices.js";

/**
 * A deactivated user's devices: deleted here, then unregistered at the push
 * notification service (Zulip's `clear_push_device_tokens`, called by
 * `do_deactivate_user`), so their phones stop ringing for an account that
 * can no longer sign in.
 *
 * Cost: one Query and a BatchWriteItem of the devices, one HTTPS call when
 * push notifications are configured.
 * @throws PushBouncerRetryLaterError when the service is unreachable (the job is retried; the local deletion is idempotent)
 */
export async function runPushUnregisterAll(deps: Deps, p: JobPayload<"push_unregister_all">): Promise<void> {
  await deleteAllPushDevices(deps, p.user_id);
  if (!deps.pushBouncer) return;
  const realm = await getRealm(deps, p.realm_id);
  if (!realm) return;
  await deps.pushBouncer.unregisterAllDevices(await bouncerIdentity(deps, realm, p.user_id));
}
