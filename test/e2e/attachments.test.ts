import { describe, expect, it } from "vitest";
import { thumbnailObjectKey } from "../../shared/storage/object-keys.js";
import { doCreateRealm } from "../../shared/actions/realms/create-realm.js";
import { deleteRealmJob } from "../../shared/actions/realms/delete-realm.js";
import { checkAddRealmEmoji, checkRemoveRealmEmoji } from "../../shared/actions/realms/realm-emoji.js";
import { checkUploadRealmIcon, checkUploadRealmLogo } from "../../shared/actions/realms/realm-images.js";
import { checkSetAvatar } from "../../shared/actions/users/avatar.js";
import { listLocalFiles } from "../../infra/local/s3-local.js";
import { attachmentByPath, putAttachment } from "../../shared/data/attachments.js";
import { claimRealmDeletion } from "../../shared/data/demo-organizations.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, createStreamId, queueClient } from "./streams-helpers.js";
import { animatedGifBytes, pngBytes } from "./image-upload-helpers.js";
import { fetchFile, getRoot, uploadFile } from "./uploads-helpers.js";

describe("attachments", () => {
  const org = useTestOrg();
  const pathOf = (url: string) => url.replace("/user_uploads/", "");

  async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
    const res = await org.api(user, "POST", "/messages", params);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  }

  async function attachmentOf(user: TestUser, url: string): Promise<Record<string, any> | undefined> {
    const res = await org.api(user, "GET", "/attachments");
    expect(res.status).toBe(200);
    return (res.body.attachments as Record<string, any>[]).find((a) => a.path_id === pathOf(url));
  }

  it("a public stream message claims the upload: listed with the message, readable by members, not by a guest", async () => {
    const { member, member2, guest } = org.users;
    const streamId = await createStreamId(org, member, "files public");
    const url = await uploadFile(org, member, "shared.txt", "shared bytes");
    const before = Date.now();
    const messageId = await send(member, { type: "stream", to: streamId, topic: "t", content: `see [shared.txt](${url})` });

    const listed = await attachmentOf(member, url);
    expect(listed).toMatchObject({ name: "shared.txt", size: 12, messages: [{ id: messageId }] });
    expect(Math.abs(listed!.messages[0].date_sent - before)).toBeLessThan(5000);
    expect(Object.keys(listed!).sort()).toEqual(["create_time", "id", "messages", "name", "path_id", "size"]);

    const got = await fetchFile(org, member2, url);
    expect(new TextDecoder().decode(got.bytes)).toBe("shared bytes");
    expect((await getRoot(org, guest, url)).status).toBe(403);
  });

  it("a private stream's file is refused to non-subscribers and served to subscribers", async () => {
    const { member, member2, moderator } = org.users;
    const stream = await createStream(org, member, "files private", { invite_only: true, principals: [member.id, moderator.id] });
    const streamId = stream.stream_id;
    const url = await uploadFile(org, member, "secret.txt", "secret");
    await send(member, { type: "stream", to: streamId, topic: "t", content: `[secret](${url})` });
    expect((await getRoot(org, member2, url)).status).toBe(403);
    const temp = await org.api(member2, "GET", url);
    expect(temp.status).toBe(403);
    expect((await fetchFile(org, moderator, url)).bytes.length).toBe(6);
  });

  it("a direct message's file is served to its recipients only", async () => {
    const { member, member2, admin } = org.users;
    const url = await uploadFile(org, member, "dm.txt", "for you");
    await send(member, { type: "private", to: [member2.id], content: `[dm](${url})` });
    expect((await fetchFile(org, member2, url)).bytes.length).toBe(7);
    expect((await getRoot(org, admin, url)).status).toBe(403);
  });

  it("a link to someone else's file the sender cannot see claims nothing", async () => {
    const { member, member2 } = org.users;
    const url = await uploadFile(org, member2, "theirs.txt", "theirs");
    const streamId = await createStreamId(org, member, "files steal");
    await send(member, { type: "stream", to: streamId, topic: "t", content: `[x](${url})` });
    expect((await attachmentOf(member2, url))!.messages).toEqual([]);
    expect((await getRoot(org, member, url)).status).toBe(403);
  });

  it("sends attachment update on claim and remove on delete to the owner's second client", async () => {
    const { member } = org.users;
    const client = queueClient(org, member);
    await client.register({ event_types: ["attachment"] });
    const url = await uploadFile(org, member, "evented.txt", "e");
    const added = await client.waitFor((e) => e.type === "attachment" && e.op === "add");
    const id = added.attachment.id as number;
    const messageId = await send(member, { type: "private", to: [member.id], content: `[e](${url})` });
    const updated = await client.waitFor((e) => e.type === "attachment" && e.op === "update");
    expect(updated.attachment).toMatchObject({ id, messages: [{ id: messageId }] });

    const del = await org.api(member, "DELETE", `/attachments/${id}`);
    expect(del.status).toBe(200);
    const removed = await client.waitFor((e) => e.type === "attachment" && e.op === "remove");
    expect(removed.attachment).toEqual({ id });
    expect(typeof removed.upload_space_used).toBe("number");
  });

  it("DELETE /attachments/{id}: owner only; the file then answers 404 and is no longer listed", async () => {
    const { member, member2, admin } = org.users;
    const url = await uploadFile(org, member, "doomed.txt", "bye");
    const id = (await attachmentOf(member, url))!.id as number;
    for (const other of [member2, admin]) {
      const refused = await org.api(other, "DELETE", `/attachments/${id}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid attachment" });
    }
    const spaceBefore = (await org.api(member, "GET", "/attachments")).body.upload_space_used as number;
    expect((await org.api(member, "DELETE", `/attachments/${id}`)).status).toBe(200);
    expect(await attachmentOf(member, url)).toBeUndefined();
    expect((await org.api(member, "GET", "/attachments")).body.upload_space_used).toBe(spaceBefore - 3);
    const gone = await getRoot(org, member, url);
    expect(gone.status).toBe(404);
    expect(await org.stack.deps.files.get(pathOf(url))).toBeUndefined();
    const again = await org.api(member, "DELETE", `/attachments/${id}`);
    expect(again.body.msg).toBe("Invalid attachment");
  });

  it("edits claim new links and release removed ones", async () => {
    const { member } = org.users;
    const first = await uploadFile(org, member, "first.txt", "1");
    const second = await uploadFile(org, member, "second.txt", "2");
    const messageId = await send(member, { type: "private", to: [member.id], content: `[a](${first})` });
    const edit = await org.api(member, "PATCH", `/messages/${messageId}`, { content: `now [b](${second})` });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await attachmentOf(member, first))!.messages).toEqual([]);
    expect((await attachmentOf(member, second))!.messages.map((m: any) => m.id)).toEqual([messageId]);
  });

  it("deleting a message deletes the files only it claimed", async () => {
    const { member, admin } = org.users;
    const only = await uploadFile(org, member, "only.txt", "only");
    const both = await uploadFile(org, member, "both.txt", "both");
    const streamId = await createStreamId(org, member, "files deleted");
    const first = await send(member, { type: "stream", to: streamId, topic: "t", content: `[o](${only}) [b](${both})` });
    await send(member, { type: "stream", to: streamId, topic: "t", content: `[b](${both})` });
    const del = await org.api(admin, "DELETE", `/messages/${first}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await org.stack.drainDeferredWork();
    expect(await attachmentOf(member, only)).toBeUndefined();
    expect((await getRoot(org, member, only)).status).toBe(404);
    expect(await org.stack.deps.files.get(pathOf(only))).toBeUndefined();
    expect((await attachmentOf(member, both))!.messages).toHaveLength(1);
  });

  it("the daily sweep deletes uploads unclaimed for five weeks and keeps recent and claimed ones", async () => {
    const deps = org.stack.deps;
    const { member } = org.users;
    const oldPath = `${org.realm.id}/aa/${"o".repeat(24)}/old.txt`;
    await deps.files.put(oldPath, new TextEncoder().encode("old"), { contentType: "text/plain" });
    const sixWeeksAgo = Date.now() - 6 * 7 * 24 * 3600 * 1000;
    await putAttachment(
      deps,
      {
        id: 888_888,
        realm_id: org.realm.id,
        owner_id: member.id,
        file_name: "old.txt",
        path_id: oldPath,
        size: 3,
        content_type: "text/plain",
        create_time: sixWeeksAgo,
        messages: [],
        is_realm_public: false,
        is_web_public: false,
      },
      null,
    );
    const recent = await uploadFile(org, member, "recent.txt", "recent");
    await deps.deferred.enqueue([{ kind: "sweep_unclaimed_attachments", payload: {} }]);
    await org.stack.drainDeferredWork();
    expect(await attachmentByPath(deps, org.realm.id, oldPath)).toBeUndefined();
    expect(await deps.files.get(oldPath)).toBeUndefined();
    expect(await attachmentOf(member, recent)).toBeDefined();
  });

  it("deleting an organization deletes every object of the realm: uploads, avatars, custom emoji (with stills), icon and logos", async () => {
    const deps = org.stack.deps;
    const { realm, owner } = await doCreateRealm(deps, {
      string_id: "filesgone",
      name: "Files gone",
      owner: { email: "owner@filesgone.example", full_name: "Owner" },
    });
    const path = `${realm.id}/bb/${"g".repeat(24)}/gone.txt`;
    await deps.files.put(path, new TextEncoder().encode("gone"), { contentType: "text/plain" });
    const record = {
      id: 777_777,
      realm_id: realm.id,
      owner_id: owner.user_id,
      file_name: "gone.txt",
      path_id: path,
      size: 4,
      content_type: "text/plain",
      create_time: Date.now(),
      messages: [],
      is_realm_public: false,
      is_web_public: false,
      // Recorded as an image with one stored thumbnail, whose object goes too.
      image: { width: 4, height: 1, frames: 1, thumbnails: [{ name: "840x560.webp", width: 4, height: 1, byte_size: 5 }] },
    };
    const thumbnail = thumbnailObjectKey(path, "840x560.webp");
    await deps.files.put(thumbnail, new TextEncoder().encode("thumb"), { contentType: "image/webp" });
    await putAttachment(deps, record, null);
    const max = 4 * 1024 * 1024;
    const one = (bytes: Uint8Array) => ({ files: [{ bytes, truncated: false }], count: 1 });
    const [png, gif] = await Promise.all([pngBytes(64, 64), animatedGifBytes(32, 32)]);
    await checkSetAvatar(deps, realm, owner, one(png), max);
    await checkAddRealmEmoji(deps, realm, owner, "still_here", one(png), max);
    await checkAddRealmEmoji(deps, realm, owner, "moving", one(gif), max);
    await checkAddRealmEmoji(deps, realm, owner, "retired", one(png), max);
    await checkRemoveRealmEmoji(deps, realm, owner, "retired");
    await checkUploadRealmIcon(deps, realm, owner, one(png), max);
    await checkUploadRealmLogo(deps, realm, owner, false, one(png), max);
    await checkUploadRealmLogo(deps, realm, owner, true, one(png), max);
    const endpoint = deps.config.S3_ENDPOINT!;
    const stored = await listLocalFiles(endpoint, `${realm.id}/`);
    // The upload, 2 avatar sizes, 3 emoji images and 1 still, the icon and 2 logos.
    expect(stored.length).toBe(10);
    expect(stored.filter((k) => k.includes("/emoji/images/still/"))).toHaveLength(1);
    expect(await claimRealmDeletion(deps, realm.id, Math.floor(Date.now() / 1000), 0)).toBe(true);
    await deps.deferred.enqueue([deleteRealmJob(realm.id)]);
    await org.stack.drainDeferredWork();
    expect(await attachmentByPath(deps, realm.id, path)).toBeUndefined();
    expect(await deps.files.get(path)).toBeUndefined();
    expect(await deps.files.get(thumbnail)).toBeUndefined();
    expect(await listLocalFiles(endpoint, `${realm.id}/`)).toEqual([]);
  });
});
