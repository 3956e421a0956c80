/**
 * The mobile apps' device endpoints on a server without a push notification
 * service (no `PUSH_NOTIFICATION_BOUNCER_URL`): devices are stored, so the
 * server knows who has a phone, but nothing is sent anywhere, and the
 * server says push notifications are not enabled. With the service:
 * `push-devices.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { listPushDevices } from "../../shared/data/push-devices.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

const APNS = "/users/me/apns_device_token";
const FCM = "/users/me/android_gcm_reg_id";
const TEST = "/mobile_push/test_notification";
const ok = { status: 200, body: { result: "success", msg: "" } };
const err = (msg: string, code = "BAD_REQUEST") => ({ status: 400, body: { result: "error", msg, code } });

async function answer(res: Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const { status, body } = await res;
  return { status, body };
}

const devices = async (user: TestUser) => (await listPushDevices(org.stack.deps, user.id)).map((d) => [d.kind, d.token, d.ios_app_id]);

describe("mobile push devices without a push notification service", () => {
  it("stores and removes devices locally; a second registration changes nothing", async () => {
    const me = await org.createUser("local-push");
    expect(org.stack.deps.pushBouncer).toBeUndefined();

    expect(await answer(org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }))).toEqual(ok);
    expect(await answer(org.api(me, "POST", FCM, { token: "android-token" }))).toEqual(ok);
    expect(await answer(org.api(me, "POST", FCM, { token: "android-token" }))).toEqual(ok);
    expect(await devices(me)).toEqual([
      [1, "apple-tokenbb", "org.zulip.Zulip"],
      [2, "android-token", undefined],
    ]);

    expect(await answer(org.api(me, "DELETE", APNS, { token: "apple-tokenbb" }))).toEqual(ok);
    expect(await answer(org.api(me, "DELETE", FCM, { token: "android-token" }))).toEqual(ok);
    expect(await devices(me)).toEqual([]);
  });

  it("refuses to remove a token the user has not registered (of that kind)", async () => {
    const me = await org.createUser("local-push-unknown");
    await org.api(me, "POST", FCM, { token: "abcd1234" });
    expect(await answer(org.api(me, "DELETE", APNS, { token: "abcd1234" }))).toEqual(err("Token does not exist"));
    expect(await answer(org.api(me, "DELETE", FCM, { token: "never-registered" }))).toEqual(err("Token does not exist"));
    expect(await answer(org.api(org.users.member, "DELETE", FCM, { token: "abcd1234" }))).toEqual(err("Token does not exist"));
    expect(await devices(me)).toEqual([[2, "abcd1234", undefined]]);
  });

  it("accepts a test notification and sends nothing; an unknown token is still refused", async () => {
    const me = await org.createUser("local-push-test");
    await org.api(me, "POST", FCM, { token: "android-token" });
    expect(await answer(org.api(me, "POST", TEST, { token: "android-token" }))).toEqual(ok);
    expect(await answer(org.api(me, "POST", TEST, {}))).toEqual(ok);
    expect(await answer(org.api(me, "POST", TEST, { token: "unknown" }))).toEqual(err("Device not recognized", "INVALID_PUSH_DEVICE_TOKEN"));
  });

  it("GET /server_settings and register say push notifications are not enabled", async () => {
    expect((await org.api(null, "GET", "/server_settings")).body).toMatchObject({ result: "success", push_notifications_enabled: false });
    const registered = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(registered.body).toMatchObject({ realm_push_notifications_enabled: false, realm_push_notifications_enabled_end_timestamp: null });
  });

  it("deactivating a user deletes their devices (the worker's job, nothing to tell a service)", async () => {
    const me = await org.createUser("local-push-deactivated");
    await org.api(me, "POST", FCM, { token: "android-token" });
    expect(await answer(org.api(org.users.admin, "DELETE", `/users/${me.id}`))).toEqual(ok);
    await org.stack.drainDeferredWork();
    expect(await devices(me)).toEqual([]);
  });
});
