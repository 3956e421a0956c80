import { request } from "node:http";
import { ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { main } from "../../scripts/manage.js";
import { DEMO_ORGANIZATION_LIFETIME_DAYS, doDeleteExpiredDemoOrganizations } from "../../shared/actions/realms/demo-organizations.js";
import { checkCreateUser } from "../../shared/actions/users/create-user.js";
import { hashApiKey } from "../../shared/auth/api-key.js";
import { dueDemoDeletions } from "../../shared/data/demo-organizations.js";
import { deleteUserDataBatch } from "../../shared/data/realm-deletion.js";
import { clearDemoOrganizationDeletionDate, getRealm, realmBySubdomain } from "../../shared/data/realms.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import { listRealmUsers } from "../../shared/data/users.js";
import { realmHost } from "../../shared/domain/email.js";
import { BotType, Role } from "../../shared/domain/roles.js";
import { systemClock } from "../../shared/deps.js";
import { DELETE_REALM_BATCH, runDeleteRealm } from "../../shared/actions/realms/delete-realm.js";
import { DELETE_REALM_PHASES } from "../../shared/deferred/jobs.js";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();
const DAY_MS = 86_400_000;

/** Runs the CLI in-process against the test stack's table. */
async function manage(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { deps: org.stack.deps, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

/** Every item of the table, by `pk|sk` (a Scan is fine in a test: the table is this file's own). */
async function tableItems(): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  do {
    const out = await org.stack.deps.db.send(new ScanCommand({ TableName: org.stack.deps.table, ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) items.set(`${item.pk}|${item.sk}`, item);
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The table without the global ID counters (every organization's creations advance them). */
async function itemsWithoutCounters(): Promise<Map<string, Record<string, unknown>>> {
  const items = await tableItems();
  for (const key of [...items.keys()]) if (key.startsWith("COUNTER#")) items.delete(key);
  return items;
}

/** Creates a demo organization with the CLI; returns it and its owner as a test user. */
async function createDemo(subdomain: string): Promise<{ realm: RealmRecord; owner: TestUser; out: string[] }> {
  const { code, out, err } = await manage(
    "create-realm", "--demo", "--subdomain", subdomain, "--name", `Demo ${subdomain}`,
    "--owner-email", `owner@${subdomain}.example`, "--owner-name", "Demo Owner",
  );
  expect(err).toEqual([]);
  expect(code).toBe(0);
  const realm = (await realmBySubdomain(org.stack.deps, subdomain))!;
  const [owner] = await listRealmUsers(org.stack.deps, realm.id, { consistent: true });
  return {
    realm,
    owner: { id: owner!.user_id, email: owner!.delivery_email, apiKey: owner!.api_key, fullName: owner!.full_name, role: owner!.role },
    out,
  };
}

async function addUser(realm: RealmRecord, name: string, role: number = Role.MEMBER, bot = false): Promise<TestUser> {
  const user = await checkCreateUser(org.stack.deps, realm, {
    email: `${name}@${realm.string_id}.example`,
    full_name: name,
    role,
    ...(bot ? { is_bot: true, bot_type: BotType.DEFAULT, bot_owner_id: null } : {}),
  });
  return { id: user.user_id, email: user.delivery_email, apiKey: user.api_key, fullName: user.full_name, role: user.role };
}

/**
 * Calls the API on an organization's host: `fetch` cannot set a Host header,
 * so this goes through node:http to the local server.
 */
function demoApi(
  realm: RealmRecord,
  user: TestUser | null,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const encoded = encodeParams(params).toString();
  const headers: Record<string, string> = { host: realmHost(realm, org.stack.deps.config) };
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
  let target = `/api/v1${path}`;
  if (method === "GET") {
    if (encoded) target += `?${encoded}`;
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers["content-length"] = String(Buffer.byteLength(encoded));
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: org.stack.port, method, path: target, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> }));
    });
    req.on("error", reject);
    if (method !== "GET") req.write(encoded);
    req.end();
  });
}

/** Runs `fn` with the server's clock `days` ahead. */
async function daysLater<T>(days: number, fn: () => Promise<T>): Promise<T> {
  org.stack.deps.clock = { now: () => Date.now() + days * DAY_MS };
  try {
    return await fn();
  } finally {
    org.stack.deps.clock = systemClock;
  }
}

describe("demo organizations: creation and the deletion date", () => {
  it("create-realm --demo schedules the deletion 30 days out; register and server_settings show it", async () => {
    // Act
    const before = Math.floor(Date.now() / 1000);
    const { realm, owner, out } = await createDemo("demo-show");
    const after = Math.floor(Date.now() / 1000);
    // Assess
    const date = realm.demo_organization_scheduled_deletion_date!;
    expect(date).toBeGreaterThanOrEqual(before + DEMO_ORGANIZATION_LIFETIME_DAYS * 86_400);
    expect(date).toBeLessThanOrEqual(after + DEMO_ORGANIZATION_LIFETIME_DAYS * 86_400);
    expect(out[1]).toBe(`Demo organization: deleted on ${new Date(date * 1000).toISOString()} unless converted`);
    const settings = await demoApi(realm, null, "GET", "/server_settings");
    expect(settings.status).toBe(200);
    expect(settings.body.realm_name).toBe("Demo demo-show");
    expect(settings.body.demo_organization_scheduled_deletion_date).toBe(date);
    const register = await demoApi(realm, owner, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) });
    expect(register.status).toBe(200);
    expect(register.body.demo_organization_scheduled_deletion_date).toBe(date);
    expect(register.body.realm_name).toBe("Demo demo-show");
  });

  it("a normal organization has no deletion date in register or server_settings", async () => {
    const settings = await org.api(null, "GET", "/server_settings");
    expect(settings.body.realm_name).toBe(org.realm.name);
    expect(settings.body).not.toHaveProperty("demo_organization_scheduled_deletion_date");
    const register = await org.api(org.users.owner, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) });
    expect(register.body).toHaveProperty("realm_date_created");
    expect(register.body).not.toHaveProperty("demo_organization_scheduled_deletion_date");
    const plain = await manage(
      "create-realm", "--subdomain", "plain", "--name", "Plain", "--owner-email", "o@plain.example", "--owner-name", "Plain Owner",
    );
    expect(plain.out).toHaveLength(3);
    expect((await realmBySubdomain(org.stack.deps, "plain"))!.demo_organization_scheduled_deletion_date).toBeUndefined();
  });

  it("converting a demo organization clears the date and its scheduled deletion", async () => {
    // Prepare
    const { realm, owner } = await createDemo("demo-convert");
    const date = realm.demo_organization_scheduled_deletion_date!;
    // Act
    expect(await clearDemoOrganizationDeletionDate(org.stack.deps, realm.id, date)).toBe(true);
    // Assess: a second conversion finds nothing to clear
    expect(await clearDemoOrganizationDeletionDate(org.stack.deps, realm.id, date)).toBe(false);
    expect((await getRealm(org.stack.deps, realm.id))!.demo_organization_scheduled_deletion_date).toBeUndefined();
    const settings = await demoApi(realm, null, "GET", "/server_settings");
    expect(settings.body.realm_name).toBe("Demo demo-convert");
    expect(settings.body).not.toHaveProperty("demo_organization_scheduled_deletion_date");
    const register = await demoApi(realm, owner, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) });
    expect(register.body).not.toHaveProperty("demo_organization_scheduled_deletion_date");
    const due = await dueDemoDeletions(org.stack.deps, date + 1);
    expect(due.map((e) => e.realmId)).not.toContain(realm.id);
    // Past the old date the sweep leaves it alone.
    const result = await daysLater(DEMO_ORGANIZATION_LIFETIME_DAYS + 1, () => doDeleteExpiredDemoOrganizations(org.stack.deps));
    expect(result.started.map((r) => r.id)).not.toContain(realm.id);
    await org.stack.drainDeferredWork();
    expect(await getRealm(org.stack.deps, realm.id)).toMatchObject({ deactivated: false, name: "Demo demo-convert" });
  });

  it("the sweep re-checks the realm: a converted organization whose schedule entry remains is skipped and the entry removed", async () => {
    // Prepare: the field removed, or set to null, without the entry (as a conversion that forgot it would leave things)
    const { realm } = await createDemo("demo-stale");
    const { realm: nulled } = await createDemo("demo-null");
    for (const [r, update] of [[realm, "REMOVE #d"], [nulled, "SET #d = :null"]] as const) {
      await org.stack.deps.db.send(
        new UpdateCommand({
          TableName: org.stack.deps.table,
          Key: { pk: `REALM#${r.id}`, sk: "REALM" },
          UpdateExpression: update,
          ExpressionAttributeNames: { "#d": "demo_organization_scheduled_deletion_date" },
          ...(update.startsWith("SET") ? { ExpressionAttributeValues: { ":null": null } } : {}),
        }),
      );
    }
    const settings = await demoApi(nulled, null, "GET", "/server_settings");
    expect(settings.body.realm_name).toBe("Demo demo-null");
    expect(settings.body).not.toHaveProperty("demo_organization_scheduled_deletion_date");
    // Act
    const result = await daysLater(DEMO_ORGANIZATION_LIFETIME_DAYS + 1, () => doDeleteExpiredDemoOrganizations(org.stack.deps));
    await org.stack.drainDeferredWork();
    // Assess
    expect(result.started.map((r) => r.id)).not.toContain(realm.id);
    expect(result.started.map((r) => r.id)).not.toContain(nulled.id);
    expect(result.staleEntries).toBeGreaterThanOrEqual(2);
    expect(await getRealm(org.stack.deps, realm.id)).toMatchObject({ deactivated: false });
    expect(await getRealm(org.stack.deps, nulled.id)).toMatchObject({ deactivated: false });
    const due = await dueDemoDeletions(org.stack.deps, realm.date_created + 365 * 86_400);
    expect(due.map((e) => e.realmId)).not.toContain(realm.id);
    expect(due.map((e) => e.realmId)).not.toContain(nulled.id);
  });
});

describe("delete_realm jobs", () => {
  it("do nothing to an organization that is not marked for deletion", async () => {
    // Prepare
    const before = await itemsWithoutCounters();
    // Act: every phase, as if a job were enqueued by mistake for the seeded organization
    for (const phase of DELETE_REALM_PHASES) await runDeleteRealm(org.stack.deps, { realm_id: org.realm.id, phase });
    await org.stack.drainDeferredWork();
    // Assess
    expect(await itemsWithoutCounters()).toEqual(before);
  });
});

describe("deleteUserDataBatch", () => {
  it("stops at its budget and reports progress until the user's partitions are empty", async () => {
    // Prepare: a user with 5 drafts, a subscription row or two and an API key item
    const { realm, owner } = await createDemo("demo-budget");
    const drafts = Array.from({ length: 5 }, (_, i) => ({ type: "", to: [], topic: "", content: `d${i}`, timestamp: 1 }));
    expect((await demoApi(realm, owner, "POST", "/drafts", { drafts: JSON.stringify(drafts) })).status).toBe(200);
    const record = (await listRealmUsers(org.stack.deps, realm.id, { consistent: true }))[0]!;
    const ownerKeys = async () =>
      [...(await tableItems()).keys()].filter((k) => /^(UM|SUBS|UEVT|DRAFTS|MUTES|UTOPIC|ALERTWORDS)#/.test(k) && k.includes(`#${owner.id}|`));
    const total = (await ownerKeys()).length;
    expect(total).toBeGreaterThanOrEqual(6);
    // Act and assess: 2 items per call
    let calls = 0;
    for (;;) {
      const step = await deleteUserDataBatch(org.stack.deps, owner.id, hashApiKey(record.api_key), 2);
      calls += 1;
      expect(step.deleted).toBeLessThanOrEqual(2);
      if (step.done) break;
      expect(step.deleted).toBe(2);
      expect(calls).toBeLessThan(total);
    }
    expect(calls).toBeGreaterThanOrEqual(Math.ceil(total / 2));
    expect(await ownerKeys()).toEqual([]);
    expect((await demoApi(realm, owner, "GET", "/users/me")).status).toBe(401);
    // Not a demo any more: the later sweep leaves this half-deleted organization alone.
    expect(await clearDemoOrganizationDeletionDate(org.stack.deps, realm.id, realm.demo_organization_scheduled_deletion_date!)).toBe(true);
  });
});

describe("manage delete-expired-demos", () => {
  it("takes no options and reports an empty sweep", async () => {
    const bad = await manage("delete-expired-demos", "--realm", "");
    expect(bad.code).toBe(1);
    expect(bad.err).toEqual(["error: delete-expired-demos does not take --realm"]);
    const none = await manage("delete-expired-demos");
    expect(none).toEqual({ code: 0, out: ["0 expired demo organization(s) being deleted; 0 stale schedule entries removed"], err: [] });
  });

  it("refuses --demo on another command", async () => {
    const res = await manage("list-users", "--realm", "", "--demo");
    expect(res.code).toBe(1);
    expect(res.err).toEqual(["error: list-users does not take --demo"]);
  });
});

describe("demo organizations: deletion when the date passes", () => {
  it("deletes every item of the expired demo organization and nothing of the others", async () => {
    // Prepare: the table before the demo organization exists
    const convert = await realmBySubdomain(org.stack.deps, "demo-convert");
    const before = await itemsWithoutCounters();
    const { realm, owner } = await createDemo("demo-gone");
    const member = await addUser(realm, "member");
    const admin = await addUser(realm, "admin", Role.ADMINISTRATOR);
    const bot = await addUser(realm, "bot", Role.MEMBER, true);
    // More users and messages than one deletion job takes (DELETE_REALM_BATCH), so the jobs continue each other.
    const extras = [];
    for (let i = 0; i < DELETE_REALM_BATCH.users; i++) extras.push(await addUser(realm, `extra${i}`));
    const api = (user: TestUser, method: string, path: string, params?: Record<string, unknown>) => {
      const res = demoApi(realm, user, method, path, params);
      return res.then((r) => {
        expect(r.body, `${method} ${path}: ${JSON.stringify(r.body)}`).toMatchObject({ result: "success" });
        return r;
      });
    };
    // Queues with events: a queue of the member (it gets the messages below) and one reading public streams.
    const queue = await api(member, "POST", "/register", { event_types: JSON.stringify(["message", "reaction"]) });
    await api(admin, "POST", "/register", { all_public_streams: "true", event_types: JSON.stringify(["message"]) });
    await api(owner, "POST", "/users/me/subscriptions", {
      subscriptions: JSON.stringify([{ name: "demo talk" }]),
      principals: JSON.stringify([member.id, admin.id, bot.id, ...extras.map((u) => u.id)]),
    });
    const sent: number[] = [];
    for (let i = 0; i < DELETE_REALM_BATCH.messages + 2; i++) {
      const res = await api(owner, "POST", "/messages", { type: "stream", to: "demo talk", topic: `topic ${i % 2}`, content: `hello zebra${i}` });
      sent.push(res.body.id as number);
    }
    const general = await api(member, "POST", "/messages", { type: "stream", to: "general", topic: "hi", content: "general words" });
    const dm = await api(member, "POST", "/messages", { type: "private", to: JSON.stringify([owner.id]), content: "a private note" });
    const groupDm = await api(admin, "POST", "/messages", { type: "private", to: JSON.stringify([owner.id, member.id]), content: "group note" });
    await api(owner, "PATCH", `/messages/${sent[0]}`, { content: "edited giraffe" });
    await api(member, "POST", `/messages/${sent[1]}/reactions`, { emoji_name: "smile" });
    await api(owner, "POST", `/messages/${dm.body.id}/reactions`, { emoji_name: "heart" });
    await api(member, "POST", "/messages/flags", { messages: JSON.stringify([sent[2]]), op: "add", flag: "starred" });
    await api(member, "POST", "/drafts", { drafts: JSON.stringify([{ type: "", to: [], topic: "", content: "draft text", timestamp: 1 }]) });
    await api(member, "POST", "/users/me/alert_words", { alert_words: JSON.stringify(["zebra"]) });
    await api(member, "POST", `/users/me/muted_users/${admin.id}`);
    const stream = (await api(owner, "GET", "/get_stream_id", { stream: "demo talk" })).body.stream_id as number;
    await api(member, "POST", "/user_topics", { stream_id: stream, topic: "topic 1", visibility_policy: 1 });
    await api(member, "POST", "/user_topics", { stream_id: stream, topic: "no messages here", visibility_policy: 2 });
    await api(owner, "POST", "/user_topics", { stream_id: stream, topic: "set then cleared", visibility_policy: 1 });
    await api(owner, "POST", "/user_topics", { stream_id: stream, topic: "set then cleared", visibility_policy: 0 });
    await api(owner, "POST", "/user_topics", { stream_id: stream, topic: "never set", visibility_policy: 0 });
    await api(member, "POST", "/users/me/presence", { status: "active" });
    await api(owner, "POST", "/users/me/status", { status_text: "busy" });
    await api(member, "POST", "/users/me/android_gcm_reg_id", { token: "demo-phone" });
    await org.stack.drainDeferredWork();
    const events = await api(member, "GET", "/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: "true" });
    expect(events.body.events.length).toBeGreaterThan(0);
    expect(general.body.id).toBeGreaterThan(0);
    expect(groupDm.body.id).toBeGreaterThan(0);
    const during = await itemsWithoutCounters();
    const added = [...during.keys()].filter((k) => !before.has(k));
    for (const prefix of ["REALM#", "REALMHOST#", "APIKEY#", "SUBS#", "MSG#", "UM#", "RECIPIENT#", "SEARCH#", "QUEUE#", "UEVT#", "REVT#",
      "PRESENCE#", "DRAFTS#", "ALERTWORDS#", "MUTES#", "UTOPIC#", "TOPICPOLICY#", "DEMODELETE", "PUSHDEV#"]) {
      expect(added.some((k) => k.startsWith(prefix)), prefix).toBe(true);
    }
    // Act: not yet due, then 31 days later (through the CLI, as an operator would)
    expect((await doDeleteExpiredDemoOrganizations(org.stack.deps)).started).toEqual([]);
    const swept = await daysLater(DEMO_ORGANIZATION_LIFETIME_DAYS + 1, () => manage("delete-expired-demos"));
    await org.stack.drainDeferredWork();
    // Assess
    expect(swept.code).toBe(0);
    expect(swept.out).toContain(`Deleting demo organization 'Demo demo-gone' (id ${realm.id}, subdomain 'demo-gone')`);
    const after = await itemsWithoutCounters();
    const left = [...after.keys()].filter((k) => !before.has(k));
    expect(left).toEqual([]);
    expect(after.size).toBe(before.size);
    for (const [key, item] of before) expect(after.get(key), key).toEqual(item);
    expect(await realmBySubdomain(org.stack.deps, "demo-gone")).toBeUndefined();
    // The converted demo organization and the seeded one still work.
    expect(await getRealm(org.stack.deps, convert!.id)).toMatchObject({ deactivated: false });
    const mine = await org.api(org.users.member, "GET", "/users/me");
    expect(mine.body).toMatchObject({ result: "success", user_id: org.users.member.id });
    const gone = await demoApi(realm, owner, "GET", "/users/me");
    expect(gone.status).toBe(401);
    // About 40 requests and a chain of deletion jobs: a budget by that count (15 s each on a busy machine), not a clock.
  }, 600_000);
});
