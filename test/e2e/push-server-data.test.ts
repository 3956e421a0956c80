import { afterAll, describe, expect, it } from "vitest";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import {
  PUSH_BOUNCER_UPDATE_JOB,
  runPushBouncerUpdate,
  sendServerDataToPushBouncer,
  USER_ROLE_CHANGED,
} from "../../shared/actions/push/server-data.js";
import { getRealm, updateRealmFields } from "../../shared/data/realms.js";
import { PushBouncerRetryLaterError } from "../../shared/push/bouncer.js";
import { Role } from "../../shared/domain/roles.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { startMockBouncer } from "../support/mock-bouncer.js";
import { useTestOrg } from "../support/local-stack.js";
import { validateEvent } from "../../shared/events/schemas.js";

const bouncer = await startMockBouncer();
const org = useTestOrg({ env: bouncer.env });
afterAll(() => bouncer.close());

const rowsOf = (realmId: number) => bouncer.auditRows.filter((r) => r.realm === realmId);

/** The seeded organization's active users: owner, admin, moderator, two members, a guest; one bot. */
const SEEDED_COUNTS = { "10": { "11": { "100": 1, "200": 1, "300": 1, "400": 2, "600": 1 }, "12": 1 } };

describe("push_bouncer_update (Zulip's send_server_data_to_push_bouncer)", () => {
  it("describes every organization and sends one billing row of its user counts", async () => {
    // Act
    const result = await sendServerDataToPushBouncer(org.stack.deps);
    // Assess
    const realm = (await getRealm(org.stack.deps, org.realm.id))!;
    expect(realm.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(bouncer.realms.get(realm.uuid!)).toEqual({
      id: realm.id,
      uuid: realm.uuid,
      uuid_owner_secret: realm.uuid_owner_secret,
      host: org.url.replace("http://", ""),
      url: org.url,
      name: "Test Organization",
      org_type: 0,
      date_created: realm.date_created,
      deactivated: false,
      is_system_bot_realm: false,
      authentication_methods: { Email: true },
    });
    const rows = rowsOf(realm.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ realm: realm.id, event_type: USER_ROLE_CHANGED, backfilled: true, extra_data: SEEDED_COUNTS });
    expect(Math.abs(Number(rows[0]!.event_time) - Date.now() / 1000)).toBeLessThan(600);
    expect(result).toEqual({ realms: bouncer.realms.size, auditRows: 1 });
    const upload = bouncer.requests.find((r) => r.endpoint === "server/analytics")!;
    expect(JSON.parse(String(upload.body.realm_counts))).toEqual([]);
    expect(JSON.parse(String(upload.body.installation_counts))).toEqual([]);
    // The service's answer (the mock's plan allows pushes) is stored.
    expect(realm.push_notifications_enabled).toBe(true);
    expect(realm.push_notifications_enabled_end_timestamp).toBeNull();
  });

  it("sends no row when nothing changed, and a row with a higher ID when a user joins", async () => {
    // Prepare
    const before = bouncer.auditRows.length;
    const lastId = Number(bouncer.auditRows.at(-1)!.id);
    // Act
    await sendServerDataToPushBouncer(org.stack.deps);
    const unchanged = bouncer.auditRows.length;
    await org.createUser("pushjoiner", Role.MEMBER);
    await sendServerDataToPushBouncer(org.stack.deps);
    // Assess
    expect(unchanged).toBe(before);
    const added = bouncer.auditRows.slice(before);
    expect(added).toHaveLength(1);
    expect(Number(added[0]!.id)).toBeGreaterThan(lastId);
    expect(added[0]!.extra_data).toEqual({ "10": { "11": { "100": 1, "200": 1, "300": 1, "400": 3, "600": 1 }, "12": 1 } });
  });

  it("leaves out organizations whose deletion has started", async () => {
    // Prepare
    const { realm: doomed } = await doCreateRealm(org.stack.deps, {
      string_id: "pushdoomed",
      name: "Doomed",
      owner: { email: "doomed-owner@test.example", full_name: "Doomed Owner", password: "doomed-password" },
    });
    const { realm: other } = await doCreateRealm(org.stack.deps, {
      string_id: "pushother",
      name: "Other",
      owner: { email: "other-owner@test.example", full_name: "Other Owner", password: "other-password" },
    });
    await updateRealmFields(org.stack.deps, doomed.id, { deletion_started_at: Math.floor(Date.now() / 1000), deactivated: true });
    // Act
    await sendServerDataToPushBouncer(org.stack.deps);
    // Assess
    const ids = [...bouncer.realms.values()].map((r) => r.id);
    expect(ids).toContain(other.id);
    expect(ids).not.toContain(doomed.id);
    expect(rowsOf(other.id)[0]!.extra_data).toEqual({ "10": { "11": { "100": 1, "200": 0, "300": 0, "400": 0, "600": 0 }, "12": 0 } });
    expect(bouncer.realms.get((await getRealm(org.stack.deps, other.id))!.uuid!)).toMatchObject({ host: `pushother.${org.url.replace("http://", "")}` });
  });

  it("stores the plan the service reports and tells the organization's clients", async () => {
    // Prepare
    const q = new EventQueueClient({ baseUrl: org.url, email: org.users.member.email, apiKey: org.users.member.apiKey, onEvent: validateEvent });
    await q.register({ event_types: ["realm"] });
    bouncer.setCanPush(false, "Your plan has too many users", 1_900_000_000);
    // Act
    await sendServerDataToPushBouncer(org.stack.deps);
    // Assess
    const realm = (await getRealm(org.stack.deps, org.realm.id))!;
    expect(realm.push_notifications_enabled).toBe(false);
    expect(realm.push_notifications_enabled_end_timestamp).toBe(1_900_000_000);
    await q.waitFor((e) => e.type === "realm" && e.property === "push_notifications_enabled_end_timestamp");
    expect(q.received.filter((e) => e.type === "realm").map((e) => [e.op, e.property, e.value])).toEqual([
      ["update", "push_notifications_enabled", false],
      ["update", "push_notifications_enabled_end_timestamp", 1_900_000_000],
    ]);
    bouncer.setCanPush(true);
    await sendServerDataToPushBouncer(org.stack.deps);
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(true);
  });

  it("rethrows a retry-later error (SQS retries the job) and changes nothing", async () => {
    // Prepare
    bouncer.failNext(503);
    // Act
    const run = runPushBouncerUpdate(org.stack.deps);
    // Assess
    await expect(run).rejects.toBeInstanceOf(PushBouncerRetryLaterError);
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(true);
  });

  it("turns every organization's push status off when the service refuses the server's credentials", async () => {
    // Prepare
    const errors: string[] = [];
    const deps = { ...org.stack.deps, log: { ...org.stack.deps.log, error: (msg: string) => void errors.push(msg) } };
    bouncer.failNext(401, { result: "error", msg: "Zulip server auth failure: key does not match", code: "INVALID_ZULIP_SERVER" });
    // Act
    const result = await sendServerDataToPushBouncer(deps);
    // Assess
    expect(result).toBeUndefined();
    expect(errors).toEqual(["push notification service refused this server's credentials: register it (docs/deploying.md)"]);
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(false);
    // The next successful upload turns it back on.
    await sendServerDataToPushBouncer(org.stack.deps);
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(true);
  });

  it("retries a concurrent upload's ordering refusal, and turns pushes off for another refusal, with a warning", async () => {
    // Prepare
    const warnings: string[] = [];
    const deps = { ...org.stack.deps, log: { ...org.stack.deps.log, warn: (msg: string) => void warnings.push(msg) } };
    bouncer.failNext(400, { result: "error", msg: "Data is out of order.", code: "BAD_REQUEST" });
    // Act / Assess: the lost race is thrown (SQS retries), nothing turned off
    await expect(sendServerDataToPushBouncer(deps)).rejects.toThrow("Data is out of order.");
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(true);
    // Act / Assess: any other refusal turns pushes off, as Zulip's maybe_mark_pushes_disabled does
    bouncer.failNext(400, { result: "error", msg: "Invalid data.", code: "BAD_REQUEST" });
    expect(await sendServerDataToPushBouncer(deps)).toBeUndefined();
    expect(warnings).toEqual(["push notification service refused the server data upload"]);
    expect((await getRealm(org.stack.deps, org.realm.id))!.push_notifications_enabled).toBe(false);
    await sendServerDataToPushBouncer(org.stack.deps);
  });

  it("does nothing when push notifications are not configured", async () => {
    const before = bouncer.requests.length;
    expect(await sendServerDataToPushBouncer({ ...org.stack.deps, pushBouncer: undefined })).toBeUndefined();
    expect(bouncer.requests.length).toBe(before);
  });

  it("runs as a deferred job on the worker", async () => {
    // Prepare
    const from = bouncer.requests.length;
    // Act
    await org.stack.deps.deferred.enqueue([PUSH_BOUNCER_UPDATE_JOB]);
    // Assess
    const upload = await bouncer.waitFor((r) => r.endpoint === "server/analytics", 20_000, from);
    expect(upload.status).toBe(200);
  });
});
