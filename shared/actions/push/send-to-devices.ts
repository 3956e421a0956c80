import type { Deps } from "../../deps.js";
import { ensureRealmUuid } from "../../data/realm-push.js";
import { listPushDevices, removePushDevice } from "../../data/push-devices.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { pushUserUuid } from "../../domain/push-identity.js";
import { PushNotificationsDisallowedError, PushTokenKind, type BouncerUserIdentity } from "../../push/bouncer.js";
import { doSetRealmPushStatus } from "./realm-push-status.js";

/** The payloads of one notification, for both platforms (Zulip's `apns_payload`, `gcm_payload`, `gcm_options`). */
export interface PushPayloads {
  apns: Record<string, unknown>;
  gcm: Record<string, unknown>;
  gcmOptions: Record<string, unknown>;
}

/** What became of one notification. */
export type PushSendOutcome =
  | { sent: false; reason: "not_configured" | "no_devices" | "disallowed" }
  | { sent: true; androidDevices: number; appleDevices: number; deletedDevices: number };

/**
 * A user's identity at the push notification service: the realm's UUID
 * (created on first use) and the user's derived UUID.
 */
export async function bouncerIdentity(deps: Deps, realm: RealmRecord, userId: number): Promise<BouncerUserIdentity> {
  const { uuid } = await ensureRealmUuid(deps, realm);
  return { user_id: userId, user_uuid: pushUserUuid(uuid, userId), realm_uuid: uuid };
}

/**
 * Hands one notification for one user to the push notification service,
 * as Zulip's `send_notifications_to_bouncer`: the user's registered devices
 * (nothing is sent for a user without any), the service's answer applied —
 * tokens it reports deleted are deleted here too, and its word on the
 * organization's plan (`realm.can_push`) is stored with
 * {@link doSetRealmPushStatus}; a plan that disallows pushes turns
 * `push_notifications_enabled` off.
 *
 * Cost: one Query (devices), the realm UUID's UpdateItem on its first use,
 * one HTTPS call; deleted tokens and a changed plan add their writes.
 * @throws PushBouncerRetryLaterError when the service is unreachable or failing (the job is retried)
 * @throws PushBouncerServerCredentialsError when the service refuses this server's credentials
 */
export async function sendPushToUserDevices(deps: Deps, realm: RealmRecord, userId: number, payloads: PushPayloads): Promise<PushSendOutcome> {
  const bouncer = deps.pushBouncer;
  if (!bouncer) return { sent: false, reason: "not_configured" };
  const devices = await listPushDevices(deps, userId);
  if (devices.length === 0) return { sent: false, reason: "no_devices" };
  const identity = await bouncerIdentity(deps, realm, userId);
  let result;
  try {
    result = await bouncer.notify({
      ...identity,
      apns_payload: payloads.apns,
      gcm_payload: payloads.gcm,
      gcm_options: payloads.gcmOptions,
      android_devices: devices.filter((d) => d.kind === PushTokenKind.FCM).map((d) => d.token),
      apple_devices: devices.filter((d) => d.kind === PushTokenKind.APNS).map((d) => d.token),
    });
  } catch (err) {
    if (!(err instanceof PushNotificationsDisallowedError)) throw err;
    deps.log.warn("push notification service refused to send", { realm_id: realm.id, reason: err.reason });
    await doSetRealmPushStatus(deps, realm.id, false, null);
    return { sent: false, reason: "disallowed" };
  }
  const deleted = [
    ...result.deleted_devices.android_devices.map((token) => ({ kind: PushTokenKind.FCM, token })),
    ...result.deleted_devices.apple_devices.map((token) => ({ kind: PushTokenKind.APNS, token })),
  ];
  await Promise.all(deleted.map((d) => removePushDevice(deps, userId, d.kind, d.token)));
  if (result.realm) await doSetRealmPushStatus(deps, realm.id, result.realm.can_push, result.realm.expected_end_timestamp);
  return {
    sent: true,
    androidDevices: result.total_android_devices,
    appleDevices: result.total_apple_devices,
    deletedDevices: deleted.length,
  };
}
