/**
 * Contract tests of the mobile apps' device endpoints: Zulip's API
 * documentation examples (`add_apns_token`, `remove_apns_token`,
 * `add_fcm_token`, `remove_fcm_token`, and the test notification) replayed,
 * each success and error response validated against Zulip's OpenAPI
 * description (`test/support/openapi.ts`), with and without a push
 * notification service (the mock of `test/support/mock-bouncer.ts`).
 */
import { afterAll, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { startMockBouncer } from "../support/mock-bouncer.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

const APNS = "/users/me/apns_device_token";
const FCM = "/users/me/android_gcm_reg_id";
const TEST = "/mobile_push/test_notification";

describeContract("contract: mobile push devices, no push notification service", () => {
  const org = useTestOrg();

  it("Zulip's examples: add and remove an APNs token and an FCM token, with their errors", async () => {
    const me = await org.createUser("contract-push");
    conforms("POST", APNS, await org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }), 200);
    conforms("POST", FCM, await org.api(me, "POST", FCM, { token: "android-token" }), 200);
    conforms("DELETE", APNS, await org.api(me, "DELETE", APNS, { token: "apple-tokenbb" }), 200);
    conforms("DELETE", FCM, await org.api(me, "DELETE", FCM, { token: "android-token" }), 200);

    const tooLong = "a".repeat(5000);
    expect(conforms("POST", APNS, await org.api(me, "POST", APNS, { token: tooLong, appid: "org.zulip.Zulip" }), 400).body.msg).toBe(
      "Empty or invalid length token",
    );
    expect(conforms("POST", APNS, await org.api(me, "POST", APNS, { token: "abc", appid: "org.zulip.Zulip" }), 400).body.msg).toBe("Invalid APNS token");
    expect(conforms("POST", FCM, await org.api(me, "POST", FCM, { token: "" }), 400).body.msg).toBe("Empty or invalid length token");
    expect(conforms("DELETE", APNS, await org.api(me, "DELETE", APNS, { token: "apple-tokenbb" }), 400).body.msg).toBe("Token does not exist");
    expect(conforms("DELETE", FCM, await org.api(me, "DELETE", FCM, { token: tooLong }), 400).body.msg).toBe("Empty or invalid length token");
    expect(conforms("DELETE", FCM, await org.api(me, "DELETE", FCM, { token: "android-token" }), 400).body.msg).toBe("Token does not exist");
  });

  it("the test notification: to a device, to all devices, and an unknown token", async () => {
    const me = await org.createUser("contract-push-test");
    await org.api(me, "POST", FCM, { token: "111222" });
    conforms("POST", TEST, await org.api(me, "POST", TEST, { token: "111222" }), 200);
    conforms("POST", TEST, await org.api(me, "POST", TEST), 200);
    const unknown = conforms("POST", TEST, await org.api(me, "POST", TEST, { token: "333444" }), 400);
    expect(unknown.body.code).toBe("INVALID_PUSH_DEVICE_TOKEN");
  });
});

const bouncer = await startMockBouncer();
afterAll(() => bouncer.close());

describeContract("contract: mobile push devices through the push notification service", () => {
  const org = useTestOrg({ env: bouncer.env });

  it("Zulip's examples registered at the service; a device it forgot is refused on test", async () => {
    const me = await org.createUser("contract-push-service");
    conforms("POST", APNS, await org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }), 200);
    conforms("POST", FCM, await org.api(me, "POST", FCM, { token: "android-token" }), 200);
    conforms("POST", TEST, await org.api(me, "POST", TEST, { token: "android-token" }), 200);
    bouncer.dropDevice("android-token");
    const forgotten = conforms("POST", TEST, await org.api(me, "POST", TEST, { token: "android-token" }), 400);
    expect(forgotten.body.code).toBe("INVALID_REMOTE_PUSH_DEVICE_TOKEN");
    conforms("DELETE", APNS, await org.api(me, "DELETE", APNS, { token: "apple-tokenbb" }), 200);
    const gone = conforms("DELETE", FCM, await org.api(me, "DELETE", FCM, { token: "android-token" }), 400);
    expect(gone.body.msg).toBe("Token does not exist");
    expect(bouncer.requests.filter((r) => String(r.body.user_id) === String(me.id)).map((r) => r.endpoint)).toEqual([
      "push/register",
      "push/register",
      "push/test_notification",
      "push/test_notification",
      "push/unregister",
      "push/unregister",
    ]);
  });
});
