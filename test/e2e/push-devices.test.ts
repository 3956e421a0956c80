/**
 * The mobile apps' device registration against the push notification
 * service (the mock of `test/support/mock-bouncer.ts`): `POST`/`DELETE
 * /users/me/apns_device_token` and `/users/me/android_gcm_reg_id`,
 * `POST /mobile_push/test_notification`, what deactivation and
 * organization deletion do to devices, and how the server reports push
 * notifications as configured. Without a service: `push-devices-local.test.ts`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { doSetRealmPushStatus } from "../../shared/actions/push/realm-push-status.js";
import { hashApiKey } from "../../shared/auth/api-key.js";
import { addPushDevice, listPushDevices, pushDeviceCounts } from "../../shared/data/push-devices.js";
import { deleteUserDataBatch } from "../../shared/data/realm-deletion.js";
import { getRealm } from "../../shared/data/realms.js";
import { pushUserUuid } from "../../shared/domain/push-identity.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { startMockBouncer, type MockBouncerRequest } from "../support/mock-bouncer.js";
import type { TestUser } from "../support/api-client.js";

const bouncer = await startMockBouncer();
const org = useTestOrg({ env: bouncer.env });
afterAll(() => bouncer.close());

const APNS = "/users/me/apns_device_token";
const FCM = "/users/me/android_gcm_reg_id";
const TEST = "/mobile_push/test_notification";
const ok = { status: 200, body: { result: "success", msg: "" } };
const err = (msg: string, status = 400, code = "BAD_REQUEST") => ({ status, body: { result: "error", msg, code } });

async function answer(res: Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const { status, body } = await res;
  return { status, body };
}

const devices = async (user: TestUser) => (await listPushDevices(org.stack.deps, user.id)).map((d) => ({ kind: d.kind, token: d.token, ios_app_id: d.ios_app_id }));

/** The requests the service received from index `from` on, at `endpoint`. */
const received = (endpoint: string, from = 0): MockBouncerRequest[] => bouncer.requests.slice(from).filter((r) => r.endpoint === endpoint);

/** The requests the service received about `user` from index `from` on. */
const about = (user: TestUser, from: number): MockBouncerRequest[] => bouncer.requests.slice(from).filter((r) => String(r.body.user_id) === String(user.id));

/** The organization's UUID at the service (set on the first registration). */
async function realmUuid(): Promise<string> {
  const realm = await getRealm(org.stack.deps, org.realm.id);
  expect(realm?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  return realm!.uuid!;
}

describe("POST /users/me/apns_device_token and /users/me/android_gcm_reg_id", () => {
  it("stores the devices and registers them at the service, by server, realm and user UUIDs", async () => {
    const me = await org.createUser("push-register");
    const from = bouncer.requests.length;

    expect(await answer(org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }))).toEqual(ok);
    expect(await answer(org.api(me, "POST", FCM, { token: "android-token" }))).toEqual(ok);

    const uuid = await realmUuid();
    const user_uuid = pushUserUuid(uuid, me.id);
    expect(user_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const common = { server_uuid: bouncer.env.ZULIP_ORG_ID, realm_uuid: uuid, user_uuid, user_id: String(me.id) };
    expect(received("push/register", from).map((r) => [r.status, r.orgId, r.body])).toEqual([
      [200, bouncer.env.ZULIP_ORG_ID, { ...common, token: "apple-tokenbb", token_kind: "1", ios_app_id: "org.zulip.Zulip" }],
      [200, bouncer.env.ZULIP_ORG_ID, { ...common, token: "android-token", token_kind: "2" }],
    ]);
    expect(await devices(me)).toEqual([
      { kind: 1, token: "apple-tokenbb", ios_app_id: "org.zulip.Zulip" },
      { kind: 2, token: "android-token", ios_app_id: undefined },
    ]);
    expect((await pushDeviceCounts(org.stack.deps, [me.id])).get(me.id)).toBe(2);
  });

  it("succeeds again for a device already registered: one device here, registered at the service again", async () => {
    const me = await org.createUser("push-twice");
    const from = bouncer.requests.length;
    for (let i = 0; i < 2; i++) expect(await answer(org.api(me, "POST", FCM, { token: "fcm-twice" }))).toEqual(ok);
    expect(await devices(me)).toEqual([{ kind: 2, token: "fcm-twice", ios_app_id: undefined }]);
    expect((await pushDeviceCounts(org.stack.deps, [me.id])).get(me.id)).toBe(1);
    expect(received("push/register", from).map((r) => r.status)).toEqual([200, 200]);
    expect(bouncer.devices.filter((d) => d.token === "fcm-twice")).toHaveLength(1);
  });

  it("refuses invalid tokens and app IDs with Zulip's messages, before anything is stored or sent", async () => {
    const me = await org.createUser("push-invalid");
    const from = bouncer.requests.length;
    const long = "a".repeat(4100);
    expect(await answer(org.api(me, "POST", APNS, { token: "", appid: "org.zulip.Zulip" }))).toEqual(err("Empty or invalid length token"));
    expect(await answer(org.api(me, "POST", APNS, { token: long, appid: "org.zulip.Zulip" }))).toEqual(err("Empty or invalid length token"));
    expect(await answer(org.api(me, "POST", FCM, { token: long }))).toEqual(err("Empty or invalid length token"));
    expect(await answer(org.api(me, "POST", FCM, { token: "" }))).toEqual(err("Empty or invalid length token"));
    expect(await answer(org.api(me, "POST", APNS, { token: "abc", appid: "org.zulip.Zulip" }))).toEqual(err("Invalid APNS token"));
    expect(await answer(org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "'; tables --" }))).toEqual(err("appid has invalid format"));
    expect(await answer(org.api(me, "POST", APNS, { token: "apple-tokenbb" }))).toEqual({
      status: 400,
      body: { result: "error", msg: "Missing 'appid' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "appid" },
    });
    expect(await answer(org.api(me, "POST", FCM, {}))).toMatchObject({ status: 400, body: { msg: "Missing 'token' argument" } });
    expect(await answer(org.api(me, "DELETE", APNS, { token: long }))).toEqual(err("Empty or invalid length token"));
    expect(await answer(org.api(me, "DELETE", APNS, { token: "abc" }))).toEqual(err("Invalid APNS token"));
    expect(await answer(org.api(me, "DELETE", FCM, { token: "" }))).toEqual(err("Empty or invalid length token"));
    expect(await devices(me)).toEqual([]);
    expect(about(me, from)).toEqual([]);
  });

  it("refuses bots", async () => {
    const bot = org.users.bot;
    const refused = err("This endpoint does not accept bot requests.");
    expect(await answer(org.api(bot, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }))).toEqual(refused);
    expect(await answer(org.api(bot, "POST", FCM, { token: "bot-token" }))).toEqual(refused);
    expect(await answer(org.api(bot, "DELETE", FCM, { token: "bot-token" }))).toEqual(refused);
    expect(await answer(org.api(bot, "DELETE", APNS, { token: "apple-tokenbb" }))).toEqual(refused);
    expect(await answer(org.api(bot, "POST", TEST, {}))).toEqual(refused);
    expect(await devices(bot)).toEqual([]);
  });

  it("answers 502 when the service is down or refuses this server, and keeps no device it does not have", async () => {
    const me = await org.createUser("push-down");
    await org.stack.drainDeferredWork();
    bouncer.failNext(503);
    expect(await answer(org.api(me, "POST", FCM, { token: "fcm-down" }))).toEqual(err("Received 503 from push notification bouncer", 502));
    expect(await devices(me)).toEqual([]);
    expect(await pushDeviceCounts(org.stack.deps, [me.id])).toEqual(new Map());

    bouncer.failNext(401, { result: "error", msg: "Zulip server auth failure: key does not match", code: "INVALID_ZULIP_SERVER" });
    expect(await answer(org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" }))).toEqual(
      err("Push notifications bouncer error: Zulip server auth failure: key does not match", 502),
    );
    expect(await devices(me)).toEqual([]);

    // A device stored before stays when re-registering it fails: the client's retry finds the same state.
    expect(await answer(org.api(me, "POST", FCM, { token: "fcm-kept" }))).toEqual(ok);
    bouncer.failNext(503);
    expect((await answer(org.api(me, "POST", FCM, { token: "fcm-kept" }))).status).toBe(502);
    expect(await devices(me)).toEqual([{ kind: 2, token: "fcm-kept", ios_app_id: undefined }]);
  });
});

describe("DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id", () => {
  it("deletes the device and unregisters it at the service", async () => {
    const me = await org.createUser("push-remove");
    await org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" });
    await org.api(me, "POST", FCM, { token: "android-token" });
    const from = bouncer.requests.length;

    expect(await answer(org.api(me, "DELETE", APNS, { token: "apple-tokenbb" }))).toEqual(ok);
    expect(await answer(org.api(me, "DELETE", FCM, { token: "android-token" }))).toEqual(ok);

    const common = { server_uuid: bouncer.env.ZULIP_ORG_ID, realm_uuid: await realmUuid(), user_uuid: pushUserUuid(await realmUuid(), me.id), user_id: String(me.id) };
    expect(received("push/unregister", from).map((r) => [r.status, r.body])).toEqual([
      [200, { ...common, token: "apple-tokenbb", token_kind: "1" }],
      [200, { ...common, token: "android-token", token_kind: "2" }],
    ]);
    expect(await devices(me)).toEqual([]);
    expect(bouncer.devices.filter((d) => d.user_id === me.id)).toEqual([]);
  });

  it("passes on the service's `Token does not exist` for a token nobody registered", async () => {
    const me = await org.createUser("push-remove-unknown");
    const from = bouncer.requests.length;
    expect(await answer(org.api(me, "DELETE", FCM, { token: "never-registered" }))).toEqual(err("Token does not exist"));
    expect(await answer(org.api(me, "DELETE", APNS, { token: "abcd1234" }))).toEqual(err("Token does not exist"));
    expect(received("push/unregister", from).map((r) => r.status)).toEqual([400, 400]);
  });
});

describe("POST /mobile_push/test_notification", () => {
  it("asks the service for a test notification to one device, or to each of the user's devices", async () => {
    const me = await org.createUser("push-test");
    await org.api(me, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" });
    await org.api(me, "POST", FCM, { token: "android-token-test" });
    const uuid = await realmUuid();
    const base_payload = {
      server: expect.any(String),
      realm_id: org.realm.id,
      realm_uri: expect.stringMatching(/^https?:\/\//),
      realm_url: expect.stringMatching(/^https?:\/\//),
      realm_name: org.realm.name,
      user_id: me.id,
    };
    const identity = { realm_uuid: uuid, user_uuid: pushUserUuid(uuid, me.id), user_id: me.id };

    let from = bouncer.requests.length;
    expect(await answer(org.api(me, "POST", TEST, { token: "android-token-test" }))).toEqual(ok);
    expect(received("push/test_notification", from).map((r) => [r.status, r.body])).toEqual([
      [200, { ...identity, token: "android-token-test", token_kind: 2, base_payload }],
    ]);

    from = bouncer.requests.length;
    expect(await answer(org.api(me, "POST", TEST, {}))).toEqual(ok);
    expect(received("push/test_notification", from).map((r) => [r.body.token, r.body.token_kind, r.status])).toEqual([
      ["apple-tokenbb", 1, 200],
      ["android-token-test", 2, 200],
    ]);
  });

  it("refuses a token the user has not registered, and one the service forgot", async () => {
    const me = await org.createUser("push-test-unknown");
    const other = await org.createUser("push-test-other");
    await org.api(other, "POST", FCM, { token: "someone-elses" });
    const from = bouncer.requests.length;
    expect(await answer(org.api(me, "POST", TEST, { token: "unknown-token" }))).toEqual(err("Device not recognized", 400, "INVALID_PUSH_DEVICE_TOKEN"));
    expect(await answer(org.api(me, "POST", TEST, { token: "someone-elses" }))).toEqual(err("Device not recognized", 400, "INVALID_PUSH_DEVICE_TOKEN"));
    expect(received("push/test_notification", from)).toEqual([]);

    await org.api(me, "POST", FCM, { token: "forgotten-token" });
    bouncer.dropDevice("forgotten-token");
    expect(await answer(org.api(me, "POST", TEST, { token: "forgotten-token" }))).toEqual(
      err("Device not recognized by the push bouncer", 400, "INVALID_REMOTE_PUSH_DEVICE_TOKEN"),
    );
  });

  it("succeeds without asking the service when the user has no device", async () => {
    const me = await org.createUser("push-test-none");
    const from = bouncer.requests.length;
    expect(await answer(org.api(me, "POST", TEST, {}))).toEqual(ok);
    expect(about(me, from)).toEqual([]);
  });
});

describe("deactivation and organization deletion", () => {
  it("unregisters all devices of a deactivated user at the service and deletes them here; not a bot's", async () => {
    const target = await org.createUser("push-deactivated");
    const self = await org.createUser("push-self-deactivated");
    await org.api(target, "POST", FCM, { token: "fcm-deactivated" });
    await org.api(target, "POST", APNS, { token: "apple-tokenbb", appid: "org.zulip.Zulip" });
    await org.api(self, "POST", FCM, { token: "fcm-self" });
    const from = bouncer.requests.length;

    expect(await answer(org.api(org.users.admin, "DELETE", `/users/${target.id}`))).toEqual(ok);
    expect(await answer(org.api(self, "DELETE", "/users/me"))).toEqual(ok);

    const uuid = await realmUuid();
    for (const user of [target, self]) {
      const request = await bouncer.waitFor((r) => r.endpoint === "push/unregister/all" && r.body.user_id === String(user.id), 20_000, from);
      expect([request.status, request.body]).toEqual([
        200,
        { server_uuid: bouncer.env.ZULIP_ORG_ID, realm_uuid: uuid, user_uuid: pushUserUuid(uuid, user.id), user_id: String(user.id) },
      ]);
    }
    await org.stack.drainDeferredWork();
    expect(await devices(target)).toEqual([]);
    expect(await devices(self)).toEqual([]);
    expect(await pushDeviceCounts(org.stack.deps, [target.id, self.id])).toEqual(new Map());
    expect(bouncer.devices.filter((d) => d.user_id === target.id || d.user_id === self.id)).toEqual([]);

    // Deactivating a bot queues nothing: bots register no devices.
    const owner = await org.createUser("push-bot-owner");
    const created = await org.api(owner, "POST", "/bots", { full_name: "Push bot", short_name: "push-bot" });
    expect(created.body).toMatchObject({ result: "success" });
    const botId = created.body.user_id as number;
    const before = bouncer.requests.length;
    expect(await answer(org.api(owner, "DELETE", `/bots/${botId}`))).toEqual(ok);
    await org.stack.drainDeferredWork();
    expect(received("push/unregister/all", before)).toEqual([]);
  });

  it("unregisters all devices of a user who regenerates their API key (Zulip's `do_regenerate_api_key`)", async () => {
    const me = await org.createUser("push-new-key");
    await org.api(me, "POST", FCM, { token: "fcm-old-key" });
    const from = bouncer.requests.length;

    const res = await org.api(me, "POST", "/users/me/api_key/regenerate");
    expect(res.body).toMatchObject({ result: "success", api_key: expect.any(String) });

    const request = await bouncer.waitFor((r) => r.endpoint === "push/unregister/all" && r.body.user_id === String(me.id), 20_000, from);
    expect(request.status).toBe(200);
    await org.stack.drainDeferredWork();
    expect(await devices(me)).toEqual([]);
  });

  it("deletes a user's devices and their count with the user's data when the organization is deleted", async () => {
    const me = await org.createUser("push-org-deleted");
    await addPushDevice(org.stack.deps, { user_id: me.id, kind: 2, token: "fcm-org-deleted", date_created: 1 });
    await addPushDevice(org.stack.deps, { user_id: me.id, kind: 1, token: "apns-org-deleted", ios_app_id: "org.zulip.Zulip", date_created: 1 });

    const out = await deleteUserDataBatch(org.stack.deps, me.id, hashApiKey(me.apiKey), 1000);

    expect(out.done).toBe(true);
    expect(await devices(me)).toEqual([]);
    expect(await pushDeviceCounts(org.stack.deps, [me.id])).toEqual(new Map());
  });
});

describe("configuration reporting", () => {
  it("GET /server_settings says push notifications are enabled when a service is configured", async () => {
    const res = await org.api(null, "GET", "/server_settings");
    expect(res.body).toMatchObject({ result: "success", push_notifications_enabled: true });
  });

  it("register reports the organization's push status, and a second client gets its `realm` `update` events", async () => {
    const client = new EventQueueClient({ baseUrl: org.url, email: org.users.member.email, apiKey: org.users.member.apiKey, onEvent: validateEvent });
    const before = await client.register({ fetch_event_types: ["realm"], event_types: ["realm"] });
    expect(before).toMatchObject({ realm_push_notifications_enabled: false, realm_push_notifications_enabled_end_timestamp: null });

    await doSetRealmPushStatus(org.stack.deps, org.realm.id, true, 1_900_000_000);

    // Both events are sent one after the other; the second's arrival means the first is in `received` too.
    await client.waitFor((e) => e.type === "realm" && e.property === "push_notifications_enabled_end_timestamp");
    expect(client.received.filter((e) => e.type === "realm")).toEqual([
      { id: expect.any(Number), type: "realm", op: "update", property: "push_notifications_enabled", value: true },
      { id: expect.any(Number), type: "realm", op: "update", property: "push_notifications_enabled_end_timestamp", value: 1_900_000_000 },
    ]);

    const after = await org.api(org.users.owner, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(after.body).toMatchObject({ realm_push_notifications_enabled: true, realm_push_notifications_enabled_end_timestamp: 1_900_000_000 });
    await client.delete();
  });
});
