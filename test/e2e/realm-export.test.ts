import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { extract } from "tar-stream";
import { beforeAll, describe, expect, it } from "vitest";
import { listRealmExports } from "../../shared/data/realm-exports.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, queueClient } from "./streams-helpers.js";
import { uploadFile } from "./uploads-helpers.js";

const org = useTestOrg();
const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

/** The files of a `.tar.gz`, by name. */
async function untar(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const ex = extract();
  ex.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => chunks.push(c as Buffer));
    stream.on("end", () => {
      files.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  const done = new Promise<void>((resolve, reject) => {
    ex.on("finish", resolve);
    ex.on("error", reject);
  });
  Readable.from([Buffer.from(bytes)]).pipe(createGunzip()).pipe(ex);
  await done;
  return files;
}

const FILE_BYTES = "export me: ünïcode and bytes \u0000\u0001";
let publicMessage = 0;
let privateMessage = 0;
let uploadPath = "";

beforeAll(async () => {
  const { owner, admin, member } = org.users;
  await createStreamId(org, owner, "export-public", { principals: [member.id, admin.id] });
  await createStreamId(org, owner, "export-private", { inviteOnly: true, principals: [member.id] });
  uploadPath = await uploadFile(org, member, "notes.txt", FILE_BYTES, "text/plain");
  const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "export-public", topic: "plans", content: `See [notes](${uploadPath})` });
  publicMessage = sent.body.id as number;
  const secret = await org.api(member, "POST", "/messages", { type: "stream", to: "export-private", topic: "secret", content: "not for export" });
  privateMessage = secret.body.id as number;
  await org.api(owner, "POST", `/messages/${publicMessage}/reactions`, { emoji_name: "tada" });
  await org.api(admin, "POST", "/messages/flags", { messages: JSON.stringify([publicMessage]), op: "add", flag: "starred" });
  await org.api(admin, "POST", "/messages/flags", { messages: JSON.stringify([publicMessage]), op: "add", flag: "read" });
});

describe("POST /export/realm", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s, and GET and DELETE too", async (who) => {
    const user = org.users[who];
    expect((await org.api(user, "POST", "/export/realm")).body).toEqual(err("Must be an organization administrator"));
    expect((await org.api(user, "GET", "/export/realm")).body).toEqual(err("Must be an organization administrator"));
    expect((await org.api(user, "DELETE", "/export/realm/1")).body).toEqual(err("Must be an organization administrator"));
    expect(await listRealmExports(org.stack.deps, org.realm.id)).toEqual([]);
  });

  it("writes the public export, tells the administrators as it starts and ends, and the export_url downloads it", async () => {
    const watcher = queueClient(org, org.users.owner);
    await watcher.register({ event_types: ["realm_export"] });
    const res = await org.api(org.users.admin, "POST", "/export/realm");
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const id = res.body.id as number;

    const done = await watcher.waitFor((e) => e.type === "realm_export" && e.exports.some((x: any) => x.id === id && !x.pending), { maxPolls: 30 });
    const entry = done.exports.find((x: any) => x.id === id);
    expect(entry).toEqual({
      id,
      acting_user_id: org.users.admin.id,
      export_time: expect.any(Number),
      deleted_timestamp: null,
      failed_timestamp: null,
      export_url: expect.stringMatching(/\/user_avatars\/exports\/\d+\/[A-Za-z0-9_-]{24}\/zulip-export-[a-z0-9]{8}\.tar\.gz$/),
      pending: false,
    });
    const list = await org.api(org.users.owner, "GET", "/export/realm");
    expect(list.body).toEqual({ result: "success", msg: "", exports: [entry] });

    // export_url: a redirect (not cached) to a presigned URL of the tarball.
    const path = new URL(entry.export_url as string).pathname;
    const redirect = await fetch(`${org.url}${path}`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const tarball = new Uint8Array(await (await fetch(redirect.headers.get("location")!)).arrayBuffer());
    const files = await untar(tarball);

    const realm = JSON.parse(files.get("realm.json")!.toString());
    expect(realm.zerver_realm[0]).toMatchObject({ id: org.realm.id, string_id: org.realm.string_id });
    const emails = realm.zerver_userprofile.map((u: any) => u.delivery_email);
    expect(emails).toEqual(expect.arrayContaining([org.users.owner.email, org.users.member.email, org.users.guest.email]));
    for (const u of realm.zerver_userprofile) {
      expect(u).not.toHaveProperty("api_key");
      expect(u).not.toHaveProperty("password");
    }
    const streamNames = realm.zerver_stream.map((s: any) => s.name);
    expect(streamNames).toEqual(expect.arrayContaining(["export-public", "export-private"]));
    expect(realm.zerver_reaction).toEqual([
      { id: 1, message: publicMessage, user_profile: org.users.owner.id, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" },
    ]);

    const messages = [...files.keys()].filter((n) => /^messages-\d{6}\.json$/.test(n)).flatMap((n) => JSON.parse(files.get(n)!.toString()).zerver_message);
    const ids = messages.map((m: any) => m.id);
    expect(ids).toContain(publicMessage);
    expect(ids).not.toContain(privateMessage);
    expect(messages.find((m: any) => m.id === publicMessage)).toMatchObject({ subject: "plans", sender: org.users.member.id, content: `See [notes](${uploadPath})` });

    const rows = [...files.keys()].filter((n) => n.startsWith("usermessages-")).flatMap((n) => JSON.parse(files.get(n)!.toString()).zerver_usermessage);
    expect(rows.every((r: any) => r.message !== privateMessage)).toBe(true);
    const adminRow = rows.find((r: any) => r.message === publicMessage && r.user_profile === org.users.admin.id);
    expect(adminRow.flags_mask & 3).toBe(3); // read and starred (bits 0 and 1 of Zulip's flags_mask)
    const guestRows = rows.filter((r: any) => r.user_profile === org.users.guest.id);
    expect(guestRows).toEqual([]); // the guest is not subscribed: no row

    const pathId = uploadPath.replace(/^\/user_uploads\//, "");
    expect(files.get(`uploads/${pathId}`)?.toString()).toBe(FILE_BYTES);
    expect(JSON.parse(files.get("uploads/records.json")!.toString())).toEqual([expect.objectContaining({ path: pathId, s3_path: pathId, user_profile_id: org.users.member.id })]);
    const attachments = JSON.parse(files.get("attachment.json")!.toString()).zerver_attachment;
    expect(attachments).toEqual([expect.objectContaining({ path_id: pathId, messages: [publicMessage], owner: org.users.member.id })]);

    // Deleting: the URL goes, the administrators hear of it, the tarball is removed.
    const del = await org.api(org.users.owner, "DELETE", `/export/realm/${id}`);
    expect(del.body).toEqual({ result: "success", msg: "" });
    const deleted = await watcher.waitFor((e) => e.type === "realm_export" && e.exports.some((x: any) => x.id === id && x.deleted_timestamp !== null));
    expect(deleted.exports.find((x: any) => x.id === id)).toMatchObject({ export_url: null, pending: false, deleted_timestamp: expect.any(Number) });
    expect((await org.api(org.users.owner, "DELETE", `/export/realm/${id}`)).body).toEqual(err("Export already deleted"));
    expect((await org.api(org.users.owner, "DELETE", "/export/realm/999999999")).body).toEqual(err("Invalid data export ID"));
  });

  it("refuses a sixth export within seven days", async () => {
    const before = (await listRealmExports(org.stack.deps, org.realm.id)).length;
    for (let i = before; i < 5; i++) expect((await org.api(org.users.owner, "POST", "/export/realm")).body).toMatchObject({ result: "success" });
    expect((await org.api(org.users.owner, "POST", "/export/realm")).body).toEqual(err("Exceeded rate limit."));
    expect(await listRealmExports(org.stack.deps, org.realm.id)).toHaveLength(5);
  });
});
