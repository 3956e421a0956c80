import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidRemotePushDeviceTokenError, JsonableError } from "../errors.js";
import { startMockBouncer, type MockBouncer } from "../../test/support/mock-bouncer.js";
import {
  PushBouncerRetryLaterError,
  PushBouncerServerCredentialsError,
  PushNotificationsDisallowedError,
  PushTokenKind,
  type PushBouncer,
} from "./bouncer.js";
import { createHttpPushBouncer, pushBouncerFromConfig } from "./http-bouncer.js";

let mock: MockBouncer;
let bouncer: PushBouncer;
const alice = { user_id: 7, user_uuid: "2d3c6f3e-4a7b-4c1d-8e9f-0a1b2c3d4e5f", realm_uuid: "6b1f1f0e-0c5d-4e8a-9b7c-1d2e3f405162" };

beforeAll(async () => {
  mock = await startMockBouncer();
  bouncer = pushBouncerFromConfig(mock.env)!;
});
afterAll(() => mock.close());

describe("pushBouncerFromConfig", () => {
  it("is configured only with the URL and both credentials", () => {
    expect(pushBouncerFromConfig({ PUSH_NOTIFICATION_BOUNCER_URL: mock.url, ZULIP_ORG_ID: mock.env.ZULIP_ORG_ID })).toBeUndefined();
    expect(pushBouncerFromConfig({})).toBeUndefined();
    expect(pushBouncerFromConfig(mock.env)?.url).toBe(mock.url);
  });
});

describe("the push notification service over HTTP", () => {
  it("registers a device with Zulip's form fields and HTTP Basic credentials", async () => {
    const from = mock.requests.length;
    await bouncer.registerDevice({ ...alice, token: "c0ffee", token_kind: PushTokenKind.APNS, ios_app_id: "org.zulip.Zulip" });
    const req = mock.requests[from]!;
    expect(req).toMatchObject({ method: "POST", endpoint: "push/register", orgId: mock.env.ZULIP_ORG_ID, status: 200 });
    expect(req.body).toEqual({
      server_uuid: mock.env.ZULIP_ORG_ID,
      user_uuid: alice.user_uuid,
      realm_uuid: alice.realm_uuid,
      user_id: "7",
      token: "c0ffee",
      token_kind: "1",
      ios_app_id: "org.zulip.Zulip",
    });
  });

  it("sends a notification as JSON and reads the devices the service deleted", async () => {
    await bouncer.registerDevice({ ...alice, token: "fcm-1", token_kind: PushTokenKind.FCM });
    mock.dropDevice("fcm-1");
    const result = await bouncer.notify({
      ...alice,
      apns_payload: { alert: "hi" },
      gcm_payload: { event: "message" },
      gcm_options: { priority: "high" },
      android_devices: ["fcm-1"],
      apple_devices: ["c0ffee"],
    });
    expect(result).toEqual({
      total_android_devices: 0,
      total_apple_devices: 1,
      deleted_devices: { android_devices: ["fcm-1"], apple_devices: [] },
      realm: null,
    });
    expect(mock.notifications().at(-1)).toMatchObject({ gcm_options: { priority: "high" }, apns_payload: { alert: "hi" } });
  });

  it("maps the service's refusals to Zulip's errors", async () => {
    await expect(bouncer.unregisterDevice({ ...alice, token: "nope", token_kind: PushTokenKind.FCM })).rejects.toThrow(
      new JsonableError("Token does not exist"),
    );
    await expect(
      bouncer.sendTestNotification({ ...alice, token: "nope", token_kind: PushTokenKind.FCM, base_payload: {} }),
    ).rejects.toBeInstanceOf(InvalidRemotePushDeviceTokenError);

    mock.setCanPush(false, "Too many users");
    const notify = bouncer.notify({ ...alice, apns_payload: {}, gcm_payload: {}, gcm_options: {}, android_devices: [], apple_devices: [] });
    await expect(notify).rejects.toBeInstanceOf(PushNotificationsDisallowedError);
    await expect(notify).rejects.toMatchObject({ reason: expect.stringContaining("Too many users") });
    mock.setCanPush(true);

    mock.failNext(503);
    await expect(bouncer.analyticsStatus()).rejects.toThrow(new PushBouncerRetryLaterError("Received 503 from push notification bouncer"));
    mock.failNext(429, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT" });
    await expect(bouncer.analyticsStatus()).rejects.toBeInstanceOf(PushBouncerRetryLaterError);

    const stranger = createHttpPushBouncer(mock.url, mock.env.ZULIP_ORG_ID, "wrong-key");
    const refused = stranger.registerDevice({ ...alice, token: "x", token_kind: PushTokenKind.FCM });
    await expect(refused).rejects.toBeInstanceOf(PushBouncerServerCredentialsError);
    await expect(refused).rejects.toMatchObject({ httpStatus: 502, message: expect.stringContaining("Push notifications bouncer error: Zulip server auth failure") });
  });

  it("reports an unreachable service as retry-later", async () => {
    const gone = createHttpPushBouncer("http://127.0.0.1:9", mock.env.ZULIP_ORG_ID, mock.env.ZULIP_ORG_KEY);
    await expect(gone.analyticsStatus()).rejects.toBeInstanceOf(PushBouncerRetryLaterError);
  });

  it("uploads analytics with each list as a JSON string and returns each organization's plan", async () => {
    const result = await bouncer.postAnalytics({
      realm_counts: [],
      installation_counts: [],
      realmauditlog_rows: [{ id: 1, realm: 2, event_time: 1, backfilled: false, extra_data: {}, event_type: 105 }],
      realms: [
        {
          id: 2,
          uuid: alice.realm_uuid,
          uuid_owner_secret: "s",
          host: "chat.example.com",
          url: "https://chat.example.com",
          name: "Acme",
          org_type: 0,
          date_created: 1,
          deactivated: false,
          is_system_bot_realm: false,
          authentication_methods: { Email: true },
        },
      ],
      version: "10.0-dev",
      api_feature_level: 283,
    });
    expect(result).toEqual({ realms: { [alice.realm_uuid]: { can_push: true, expected_end_timestamp: null } } });
    const body = mock.requests.at(-1)!.body;
    expect(JSON.parse(String(body.realms))).toHaveLength(1);
    expect(body.version).toBe('"10.0-dev"');
    expect(await bouncer.analyticsStatus()).toMatchObject({ last_realmauditlog_id: 1 });
  });
});
