import { doAddPushDeviceToken, doRemovePushDeviceToken } from "../../shared/actions/push/devices.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { PushTokenKind } from "../../shared/push/bouncer.js";

/**
 * `POST /users/me/apns_device_token` (https://zulip.com/api/add-apns-token):
 * registers the caller's iOS device, `token` and the app's `appid` (both required).
 */
export const addApnsDeviceToken: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { token: param.string(), appid: param.string() });
  await doAddPushDeviceToken(ctx.deps, ctx.realm, ctx.user, PushTokenKind.APNS, p.token, p.appid);
  return {};
};

/** `DELETE /users/me/apns_device_token` (https://zulip.com/api/remove-apns-token): unregisters the caller's iOS device `token`. */
export const removeApnsDeviceToken: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { token: param.string() });
  await doRemovePushDeviceToken(ctx.deps, ctx.realm, ctx.user, PushTokenKind.APNS, p.token);
  return {};
};

/** `POST /users/me/android_gcm_reg_id` (https://zulip.com/api/add-fcm-token): registers the caller's Android device `token`. */
export const addAndroidRegId: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { token: param.string() });
  await doAddPushDeviceToken(ctx.deps, ctx.realm, ctx.user, PushTokenKind.FCM, p.token);
  return {};
};

/** `DELETE /users/me/android_gcm_reg_id` (https://zulip.com/api/remove-fcm-token): unregisters the caller's Android device `token`. */
export const removeAndroidRegId: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { token: param.string() });
  await doRemovePushDeviceToken(ctx.deps, ctx.realm, ctx.user, PushTokenKind.FCM, p.token);
  return {};
};
