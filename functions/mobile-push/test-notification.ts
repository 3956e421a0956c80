import { doSendTestPushNotification } from "../../shared/actions/push/devices.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST /mobile_push/test_notification` (https://zulip.com/api/test-notify):
 * a test notification to the caller's device `token`, or to all their devices without it.
 */
export const sendTestPushNotification: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { token: param.string().optional() });
  await doSendTestPushNotification(ctx.deps, ctx.realm, ctx.user, p.token);
  return {};
};
