import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { HumanUsersOnlyError, InvalidPushDeviceTokenError, JsonableError, MissingArgumentError } from "../../errors.js";
import {
  addPushDevice,
  deleteAllPushDevices,
  findPushDeviceByToken,
  listPushDevices,
  removePushDevice,
} from "../../data/push-devices.js";
import type { PushDeviceRecord } from "../../data/records/push-device.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getRealm } from "../../data/realms.js";
import { basePushPayload } from "../../domain/push-payload.js";
import { validateApnsAppId, validatePushToken } from "../../domain/push-token.js";
import { PushTokenKind, type BouncerDevice } from "../../push/bouncer.js";
import { bouncerIdentity } from "./send-to-devices.js";

/**
 * A user's mobile devices (Zulip's `add_push_device_token`,
 * `remove_push_device_token`, `send_test_push_notification` and
 * `clear_push_device_tokens` of `zerver/lib/push_notifications.py`): stored
 * here whether or not push notifications are configured (the record tells
 * who has a phone), and registered at the push notification service
 * (`deps.pushBouncer`) when they are. The service's refusals reach the
 * client as their JsonableErrors (502 when it is unreachable or refuses
 * this server's credentials), never as a 500.
 */

/** Zulip's `@human_users_only`: the mobile apps are people's; bots have no phone. */
function requireHuman(user: UserRecord): void {
  if (user.is_bot) throw new HumanUsersOnlyError();
}

/** The registration the service knows a device by. */
async function bouncerDevice(deps: Deps, realm: RealmRecord, userId: number, kind: PushTokenKind, token: string, iosAppId?: string): Promise<BouncerDevice> {
  const identity = await bouncerIdentity(deps, realm, userId);
  return { ...identity, token, token_kind: kind, ...(kind === PushTokenKind.APNS && iosAppId !== undefined ? { ios_app_id: iosAppId } : {}) };
}

/**
 * `POST /users/me/apns_device_token` (https://zulip.com/api/add-apns-token,
 * `iosAppId` required since feature level 223) and
 * `POST /users/me/android_gcm_reg_id` (https://zulip.com/api/add-fcm-token):
 * validates, stores the device (a device already registered stays as it
 * was: success), then registers it at the push notification service when
 * one is configured — every time, as Zulip does, so a device the service
 * lost is registered again. When the service call fails, a device this call
 * stored is deleted again, so the client's retry finds the same state.
 *
 * Cost: one TransactWriteItems; with the service, the realm UUID's
 * UpdateItem on its first use and one HTTPS call.
 * @param kind {@link PushTokenKind}: 1 APNs, 2 FCM
 * @param iosAppId the app's bundle ID (`appid`), APNs only
 * @throws HumanUsersOnlyError for a bot
 * @throws JsonableError `Empty or invalid length token`, `Invalid APNS token`, `appid has invalid format`
 * @throws PushBouncerRetryLaterError 502 when the service is unreachable or failing
 * @throws PushBouncerServerCredentialsError 502 when the service refuses this server
 */
export async function doAddPushDeviceToken(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  kind: PushTokenKind,
  token: string,
  iosAppId?: string,
): Promise<void> {
  requireHuman(user);
  validatePushToken(token, kind);
  if (kind === PushTokenKind.APNS) {
    if (iosAppId === undefined) throw new MissingArgumentError("appid");
    validateApnsAppId(iosAppId);
  }
  const device: PushDeviceRecord = {
    user_id: user.user_id,
    kind,
    token,
    ...(kind === PushTokenKind.APNS ? { ios_app_id: iosAppId } : {}),
    date_created: Math.floor(deps.clock.now() / 1000),
  };
  const created = await addPushDevice(deps, device);
  if (!deps.pushBouncer) return;
  try {
    await deps.pushBouncer.registerDevice(await bouncerDevice(deps, realm, user.user_id, kind, token, iosAppId));
  } catch (err) {
    // Zulip keeps the local row; deleting it here means a device is stored only once the service has it too.
    if (created) await removePushDevice(deps, user.user_id, kind, token);
    throw err;
  }
}

/**
 * `DELETE /users/me/apns_device_token` (https://zulip.com/api/remove-apns-token)
 * and `DELETE /users/me/android_gcm_reg_id` (https://zulip.com/api/remove-fcm-token):
 * deletes the user's device, then unregisters it at the push notification
 * service when one is configured. Without a service, a token the user never
 * registered is refused; with one, the service decides (devices registered
 * before this server stored them locally are only known there).
 *
 * Cost: one TransactWriteItems; with the service, one HTTPS call.
 * @throws HumanUsersOnlyError for a bot
 * @throws JsonableError `Empty or invalid length token`, `Invalid APNS token`, `Token does not exist`
 * @throws PushBouncerRetryLaterError 502 when the service is unreachable or failing
 */
export async function doRemovePushDeviceToken(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  kind: PushTokenKind,
  token: string,
): Promise<void> {
  requireHuman(user);
  validatePushToken(token, kind);
  const removed = await removePushDevice(deps, user.user_id, kind, token);
  if (!deps.pushBouncer) {
    if (!removed) throw new JsonableError("Token does not exist");
    return;
  }
  // The service answers `Token does not exist` for a device it never had; that passes through.
  await deps.pushBouncer.unregisterDevice(await bouncerDevice(deps, realm, user.user_id, kind, token));
}

/**
 * `POST /mobile_push/test_notification` (https://zulip.com/api/test-notify,
 * Zulip's `send_test_push_notification_api`): a test notification to the
 * device with `token`, or to all the user's devices. The service builds the
 * notification from the base payload (`basePushPayload`), one request per
 * device; without a service nothing is sent (Zulip, which can send directly
 * to APNs and FCM, would; this server only hands notifications to the
 * service) and the request succeeds.
 *
 * Cost: one BatchGet (a token) or one Query (all devices); with the
 * service, one HTTPS call per device.
 * @throws HumanUsersOnlyError for a bot
 * @throws InvalidPushDeviceTokenError 400 `INVALID_PUSH_DEVICE_TOKEN` when the user has no device with `token`
 * @throws InvalidRemotePushDeviceTokenError 400 `INVALID_REMOTE_PUSH_DEVICE_TOKEN` when the service does not know a device
 * @throws PushBouncerRetryLaterError 502 when the service is unreachable or failing
 */
export async function doSendTestPushNotification(deps: Deps, realm: RealmRecord, user: UserRecord, token?: string): Promise<void> {
  requireHuman(user);
  let devices: PushDeviceRecord[];
  if (token !== undefined) {
    const device = await findPushDeviceByToken(deps, user.user_id, token);
    if (!device) throw new InvalidPushDeviceTokenError();
    devices = [device];
  } else {
    devices = await listPushDevices(deps, user.user_id);
  }
  const bouncer = deps.pushBouncer;
  if (!bouncer) {
    deps.log.info("test push notification not sent: push notifications are not configured", { user_id: user.user_id, devices: devices.length });
    return;
  }
  if (devices.length === 0) return;
  const identity = await bouncerIdentity(deps, realm, user.user_id);
  const base_payload = { ...basePushPayload(realm, user.user_id, deps.config) };
  for (const device of devices) {
    await bouncer.sendTestNotification({ ...identity, token: device.token, token_kind: device.kind as PushTokenKind, base_payload });
  }
}

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

