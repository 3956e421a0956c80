import { request } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import { pack } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/manage.js";
import { realmBySubdomain } from "../../shared/data/realms.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import { listRealmUsers } from "../../shared/data/users.js";
import { encodeParams, type TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, queueClient } from "./streams-helpers.js";
import { basicAuth, uploadFile } from "./uploads-helpers.js";

const org = useTestOrg();
const SUBDOMAIN = "imported";
const FILE_BYTES = "import me: ünïcode and bytes \u0000\u0001";

/** Calls the API (or a root path) of the organization at `subdomain` (the Host header picks it). */
function callAt(subdomain: string, user: TestUser | null, method: string, path: string, params: Record<string, unknown> = {}) {
  const encoded = encodeParams(params).toString();
  const fullPath = method === "GET" && encoded ? `${path}?${encoded}` : path;
  return new Promise<{ status: number; location: string | undefined; body: Record<string, any> }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: org.stack.port,
        method,
        path: fullPath,
        headers: {
          host: `${subdomain}.127.0.0.1:${org.stack.port}`,
          ...(user ? { authorization: basicAuth(user) } : {}),
          ...(method === "GET" ? {} : { "content-type": "application/x-www-form-urlencoded" }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          let body: Record<string, any>;
          try {
            body = JSON.parse(text);
          } catch {
            body = { raw: text };
          }
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body });
        });
      },
    );
    req.on("error", reject);
    if (method !== "GET") req.write(encoded);
    req.end();
  });
}

async function manage(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { deps: org.stack.deps, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

let dir = "";
let tarball = "";
let publicMessage = 0;
let uploadPath = "";
let newRealm: RealmRecord;
const newUsers: Record<string, TestUser> = {};
let oldUsers: Record<string, unknown>[] = [];
let oldSubscriptions: Record<string, unknown>[] = [];

beforeAll(async () => {
  const { owner, admin, member } = org.users;
  dir = await mkdtemp(join(tmpdir(), "import-test-"));
  await createStreamId(org, owner, "import-public", { principals: [member.id, admin.id] });
  await createStreamId(org, owner, "import-private", { inviteOnly: true, principals: [member.id] });
  uploadPath = await uploadFile(org, member, "notes.txt", FILE_BYTES, "text/plain");
  const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "import-public", topic: "plans", content: `See [notes](${uploadPath}) @**Adam Admin**` });
  publicMessage = sent.body.id as number;
  await org.api(member, "POST", "/messages", { type: "stream", to: "import-private", topic: "secret", content: "private stream text" });
  await org.api(member, "POST", "/messages", { type: "direct", to: JSON.stringify([admin.id]), content: "direct message text" });
  await org.api(owner, "POST", `/messages/${publicMessage}/reactions`, { emoji_name: "tada" });
  await org.api(admin, "POST", "/messages/flags", { messages: JSON.stringify([publicMessage]), op: "add", flag: "starred" });
  await org.api(admin, "POST", "/messages/flags", { messages: JSON.stringify([publicMessage]), op: "add", flag: "read" });
  oldUsers = (await org.api(owner, "GET", "/users")).body.members;
  oldSubscriptions = (await org.api(member, "GET", "/users/me/subscriptions")).body.subscriptions;

  // Export, waiting for the realm_export event that says it finished.
  const watcher = queueClient(org, owner);
  await watcher.register({ event_types: ["realm_export"] });
  const id = (await org.api(admin, "POST", "/export/realm")).body.id as number;
  const done = await watcher.waitFor((e) => e.type === "realm_export" && e.exports.some((x: any) => x.id === id && !x.pending), { maxPolls: 60 });
  const entry = done.exports.find((x: any) => x.id === id);
  expect(entry.failed_timestamp).toBeNull();
  const redirect = await fetch(`${org.url}${new URL(entry.export_url as string).pathname}`, { redirect: "manual" });
  tarball = join(dir, "export.tar.gz");
  await writeFile(tarball, new Uint8Array(await (await fetch(redirect.headers.get("location")!)).arrayBuffer()));

  const run = await manage(["import", tarball, "--subdomain", SUBDOMAIN]);
  expect(run.err).toEqual([]);
  expect(run.code).toBe(0);
  newRealm = (await realmBySubdomain(org.stack.deps, SUBDOMAIN))!;
  expect(run.out).toContain(`Owner: Olivia Owner <${owner.email}> (user id ${(await listRealmUsers(org.stack.deps, newRealm.id)).find((u) => u.delivery_email === owner.email)!.user_id})`);
  for (const u of await listRealmUsers(org.stack.deps, newRealm.id)) {
    newUsers[u.delivery_email] = { id: u.user_id, email: u.delivery_email, apiKey: u.api_key, fullName: u.full_name, role: u.role };
  }
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("manage import", () => {
  it("creates a new, active organization with the same users under new IDs and fresh API keys, without passwords", async () => {
    expect(newRealm).toMatchObject({ string_id: SUBDOMAIN, name: org.realm.name, deactivated: false });
    expect(newRealm.id).not.toBe(org.realm.id);
    const owner = newUsers[org.users.owner.email]!;
    const res = await callAt(SUBDOMAIN, owner, "GET", "/api/v1/users");
    expect(res.status).toBe(200);
    const shape = (u: any) => ({ delivery_email: u.delivery_email, full_name: u.full_name, role: u.role, is_bot: u.is_bot });
    const byEmail = (a: any, b: any) => (a.delivery_email < b.delivery_email ? -1 : 1);
    expect(res.body.members.map(shape).sort(byEmail)).toEqual(oldUsers.map(shape).sort(byEmail));
    for (const u of res.body.members) expect(oldUsers.map((o: any) => o.user_id)).not.toContain(u.user_id);

    const stored = await listRealmUsers(org.stack.deps, newRealm.id);
    for (const u of stored.filter((x) => !x.is_system_bot)) {
      expect(u.password_hash).toBeNull();
      expect(Object.values(org.users).map((o) => o.apiKey)).not.toContain(u.api_key);
    }
    // The old key names no account of the new organization.
    expect((await callAt(SUBDOMAIN, org.users.member, "GET", "/api/v1/users/me")).status).toBe(401);
    const me = await callAt(SUBDOMAIN, newUsers[org.users.member.email]!, "GET", "/api/v1/users/me");
    expect(me.body).toMatchObject({ result: "success", delivery_email: org.users.member.email, full_name: "Max Member" });
  });

  it("restores streams and subscriptions with their colors", async () => {
    const member = newUsers[org.users.member.email]!;
    const subs = (await callAt(SUBDOMAIN, member, "GET", "/api/v1/users/me/subscriptions")).body.subscriptions;
    const shape = (s: any) => ({ name: s.name, invite_only: s.invite_only, color: s.color, pin_to_top: s.pin_to_top, is_muted: s.is_muted });
    const byName = (a: any, b: any) => (a.name < b.name ? -1 : 1);
    expect(subs.map(shape).sort(byName)).toEqual(oldSubscriptions.map(shape).sort(byName));
    expect(subs.map((s: any) => s.name)).toEqual(expect.arrayContaining(["import-public", "import-private"]));
  });

  it("restores public messages with sender, topic, content, reactions and flags; the upload link points at the new path with the same bytes", async () => {
    const admin = newUsers[org.users.admin.email]!;
    const res = await callAt(SUBDOMAIN, admin, "GET", "/api/v1/messages", {
      anchor: "newest",
      num_before: 50,
      num_after: 0,
      apply_markdown: false,
      narrow: JSON.stringify([{ operator: "channel", operand: "import-public" }]),
    });
    expect(res.body.result).toBe("success");
    expect(res.body.messages).toHaveLength(1);
    const m = res.body.messages[0];
    expect(m.id).not.toBe(publicMessage);
    expect(m).toMatchObject({ subject: "plans", sender_id: newUsers[org.users.member.email]!.id, sender_full_name: "Max Member", display_recipient: "import-public" });
    const newPath = /\(\/user_uploads\/([^)]+)\)/.exec(m.content)![1]!;
    expect(newPath.startsWith(`${newRealm.id}/`)).toBe(true);
    expect(newPath.endsWith("/notes.txt")).toBe(true);
    expect(m.content).toBe(`See [notes](/user_uploads/${newPath}) @**Adam Admin**`);
    // The rendering is rewritten too: the link and the mention name the new path and user.
    const html = (await callAt(SUBDOMAIN, admin, "GET", `/api/v1/messages/${m.id}`)).body.message.content as string;
    expect(html).toContain(`href="/user_uploads/${newPath}"`);
    expect(html).toContain(`data-user-id="${admin.id}"`);
    expect(html).not.toContain(uploadPath);
    expect(m.reactions).toEqual([expect.objectContaining({ emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji", user_id: newUsers[org.users.owner.email]!.id })]);
    expect(m.flags).toEqual(expect.arrayContaining(["read", "starred", "mentioned"]));

    // Another user's flags are theirs: the member sent it (read), did not star it.
    const forMember = await callAt(SUBDOMAIN, newUsers[org.users.member.email]!, "GET", `/api/v1/messages/${m.id}`);
    expect(forMember.body.message.flags).not.toContain("starred");

    // Search finds it (the index_message job ran).
    const found = await callAt(SUBDOMAIN, admin, "GET", "/api/v1/messages", {
      anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: "search", operand: "notes" }]),
    });
    expect(found.body.messages.map((x: any) => x.id)).toEqual([m.id]);

    const file = await callAt(SUBDOMAIN, admin, "GET", `/user_uploads/${newPath}`);
    expect(file.status).toBe(302);
    expect(Buffer.from(await (await fetch(file.location!)).arrayBuffer()).toString()).toBe(FILE_BYTES);
    const attachments = (await callAt(SUBDOMAIN, newUsers[org.users.member.email]!, "GET", "/api/v1/attachments")).body.attachments;
    expect(attachments).toEqual([expect.objectContaining({ path_id: newPath, name: "notes.txt", messages: [expect.objectContaining({ id: m.id })] })]);
  });

  it("leaves out what a public export does not carry: private-stream messages and direct messages", async () => {
    const member = newUsers[org.users.member.email]!;
    const page = (narrow: unknown[]) =>
      callAt(SUBDOMAIN, member, "GET", "/api/v1/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: JSON.stringify(narrow) });
    const priv = await page([{ operator: "channel", operand: "import-private" }]);
    expect(priv.body).toMatchObject({ result: "success", messages: [] });
    expect((await page([{ operator: "is", operand: "dm" }])).body).toMatchObject({ result: "success", messages: [] });
    const all = await page([]);
    expect(all.body.messages.map((x: any) => x.content)).not.toContain("private stream text");
    expect(all.body.messages.map((x: any) => x.content)).not.toContain("direct message text");
  });

  it("refuses a taken subdomain, a file that is not an archive, and an archive without Zulip's layout, writing nothing", async () => {
    expect(await manage(["import", tarball, "--subdomain", SUBDOMAIN])).toEqual({ code: 1, out: [], err: ["error: Subdomain already in use"] });

    const junk = join(dir, "junk.tar.gz");
    await writeFile(junk, "not a tarball");
    expect(await manage(["import", junk, "--subdomain", "junk-one"])).toMatchObject({ code: 1, err: [expect.stringMatching(/^error: Not a Zulip data export: not a readable \.tar\.gz archive/)] });

    const other = join(dir, "other.tar.gz");
    const p = pack();
    p.entry({ name: "hello.txt" }, "hi");
    p.finalize();
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => p.pipe(createGzip()).on("data", (c: Buffer) => chunks.push(c)).on("end", resolve).on("error", reject));
    await writeFile(other, Buffer.concat(chunks));
    expect(await manage(["import", other, "--subdomain", "junk-two"])).toEqual({ code: 1, out: [], err: ["error: Not a Zulip data export: it has no realm.json"] });
    expect(await manage(["import", "exports/1/nothing/here.tar.gz", "--subdomain", "junk-three"])).toEqual({ code: 1, out: [], err: ["error: No export at exports/1/nothing/here.tar.gz"] });
    for (const s of ["junk-one", "junk-two", "junk-three"]) expect(await realmBySubdomain(org.stack.deps, s)).toBeUndefined();
  });
});
