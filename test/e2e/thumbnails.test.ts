import { describe, expect, it } from "vitest";
import { runThumbnail } from "../../shared/actions/uploads/thumbnails.js";
import { attachmentByPath, updateAttachmentImage } from "../../shared/data/attachments.js";
import { updateRenderedContent } from "../../shared/data/messages.js";
import type { AttachmentRecord } from "../../shared/data/records/attachment.js";
import { thumbnailObjectKey } from "../../shared/storage/object-keys.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { animatedGifBytes, imageInfo, pngBytes } from "./image-upload-helpers.js";
import { createStream, createStreamId, queueClient } from "./streams-helpers.js";
import { fetchFile, getRoot, uploadFile } from "./uploads-helpers.js";

const PLACEHOLDER_SRC = "/static/images/loading/loader-black.svg";

/** A placeholder preview of an upload, as the renderer writes it. */
const placeholderDiv = (url: string, title: string) =>
  `<div class="message_inline_image"><a href="${url}" title="${title}">` +
  `<img class="image-loading-placeholder" data-original-dimensions="10x10" src="${PLACEHOLDER_SRC}"></a></div>`;

describe("thumbnails of uploaded images", () => {
  const org = useTestOrg();

  const pathOf = (url: string) => url.replace(/^\/user_uploads\//, "");

  async function attachment(url: string): Promise<AttachmentRecord> {
    const found = await attachmentByPath(org.stack.deps, org.realm.id, pathOf(url));
    if (!found) throw new Error(`no attachment at ${url}`);
    return found;
  }

  /** Uploads an image and lets its thumbnail job finish. */
  async function uploadImage(user: TestUser, name: string, bytes: Uint8Array | string, type: string): Promise<string> {
    const url = await uploadFile(org, user, name, bytes, type);
    await org.stack.drainDeferredWork();
    return url;
  }

  /** Puts an upload back to "thumbnails not made yet": no stored formats, no thumbnail objects. */
  async function forgetThumbnails(url: string): Promise<void> {
    const found = await attachment(url);
    expect(found.image).toBeDefined();
    await org.stack.deps.files.delete(found.image!.thumbnails.map((t) => thumbnailObjectKey(found.path_id, t.name)));
    expect(await updateAttachmentImage(org.stack.deps, found, { ...found.image!, thumbnails: [] })).toBe(true);
  }

  async function send(user: TestUser, stream: string, content: string): Promise<number> {
    const sent = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic: "pictures", content });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.id as number;
  }

  async function renderedContent(user: TestUser, id: number): Promise<string> {
    const got = await org.api(user, "GET", `/messages/${id}`);
    expect(got.status).toBe(200);
    return got.body.message.content as string;
  }

  it("register lists the formats images are thumbnailed into", async () => {
    const res = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(res.status).toBe(200);
    expect(res.body.server_thumbnail_formats).toEqual([
      { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
    ]);
  });

  it("an uploaded image gets a still WebP thumbnail within 840×560, which messages show", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs");
    const url = await uploadImage(member, "wide.png", await pngBytes(1200, 900), "image/png");
    const stored = await attachment(url);
    expect(stored.image).toEqual({
      width: 1200,
      height: 900,
      frames: 1,
      thumbnails: [{ name: "840x560.webp", width: 747, height: 560, byte_size: expect.any(Number) }],
    });

    const id = await send(member, "thumbs", `[wide.png](${url})`);
    const thumb = `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`;
    expect(await renderedContent(member, id)).toBe(
      `<p><a href="${url}">wide.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="wide.png">` +
        `<img data-original-dimensions="1200x900" src="${thumb}"></a></div>`,
    );

    const served = await fetchFile(org, member, thumb);
    expect(served.file.status).toBe(200);
    expect(await imageInfo(served.bytes)).toEqual({ format: "webp", width: 747, height: 560, pages: 1 });
    expect(stored.image!.thumbnails[0]!.byte_size).toBe(served.bytes.length);
    // Another format's name is answered with the closest the image has; a small image is never enlarged.
    const other = await fetchFile(org, member, `/user_uploads/thumbnail/${pathOf(url)}/300x200.webp`);
    expect(await imageInfo(other.bytes)).toMatchObject({ width: 747, height: 560 });
    const small = await uploadImage(member, "small.png", await pngBytes(64, 48), "image/png");
    const smallThumb = await fetchFile(org, member, `/user_uploads/thumbnail/${pathOf(small)}/840x560.webp`);
    expect(await imageInfo(smallThumb.bytes)).toEqual({ format: "webp", width: 64, height: 48, pages: 1 });
  });

  it("an animated GIF gets animated and still thumbnails and renders data-animated", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs anim");
    const url = await uploadImage(member, "blink.gif", await animatedGifBytes(100, 80), "image/gif");
    expect((await attachment(url)).image).toMatchObject({ width: 100, height: 80, frames: 2 });
    expect((await attachment(url)).image!.thumbnails.map((t) => t.name).sort()).toEqual(["840x560-anim.webp", "840x560.webp"]);

    const id = await send(member, "thumbs anim", `[blink.gif](${url})`);
    expect(await renderedContent(member, id)).toBe(
      `<p><a href="${url}">blink.gif</a></p>\n<div class="message_inline_image"><a href="${url}" title="blink.gif">` +
        `<img data-animated="true" data-original-dimensions="100x80" src="/user_uploads/thumbnail/${pathOf(url)}/840x560-anim.webp"></a></div>`,
    );
    const animated = await fetchFile(org, member, `/user_uploads/thumbnail/${pathOf(url)}/840x560-anim.webp`);
    expect(await imageInfo(animated.bytes)).toEqual({ format: "webp", width: 100, height: 80, pages: 2 });
    const still = await fetchFile(org, member, `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`);
    expect(await imageInfo(still.bytes)).toEqual({ format: "webp", width: 100, height: 80, pages: 1 });
  });

  it("an image is known by its bytes: a fake .png gets no preview, an image named without extension does", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs bytes");
    const fake = await uploadImage(member, "notes.png", "just some text, not an image", "image/png");
    expect((await attachment(fake)).image).toBeUndefined();
    const fakeId = await send(member, "thumbs bytes", `[notes.png](${fake})`);
    expect(await renderedContent(member, fakeId)).toBe(`<p><a href="${fake}">notes.png</a></p>`);
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${pathOf(fake)}/840x560.webp`)).status).toBe(404);

    const bare = await uploadImage(member, "photo", await pngBytes(30, 20), "image/png");
    const bareId = await send(member, "thumbs bytes", `[photo](${bare})`);
    expect(await renderedContent(member, bareId)).toContain(
      `<img data-original-dimensions="30x20" src="/user_uploads/thumbnail/${pathOf(bare)}/840x560.webp">`,
    );
  });

  it("a message sent before the thumbnail exists shows a placeholder, then a rendering_only update_message", async () => {
    const { member, member2 } = org.users;
    await createStream(org, member, "thumbs later");
    await createStream(org, member2, "thumbs later");
    const url = await uploadImage(member, "later.png", await pngBytes(90, 60), "image/png");
    await forgetThumbnails(url);
    const watcher = queueClient(org, member2);
    await watcher.register({ event_types: ["message", "update_message"], apply_markdown: true });

    // The message as sent (its event; a read could already see the rewrite: the job runs at once).
    const id = await send(member, "thumbs later", `[later.png](${url})`);
    await org.stack.drainDeferredWork();
    const events = await watcher.poll();
    expect(events.filter((e) => e.type === "message").map((e) => e.message.content)).toEqual([
      `<p><a href="${url}">later.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="later.png">` +
        `<img class="image-loading-placeholder" data-original-dimensions="90x60" src="${PLACEHOLDER_SRC}"></a></div>`,
    ]);

    const final =
      `<p><a href="${url}">later.png</a></p>\n` +
      `<div class="message_inline_image"><a href="${url}" title="later.png">` +
      `<img data-original-dimensions="90x60" src="/user_uploads/thumbnail/${pathOf(url)}/840x560.webp"></a></div>`;
    expect(await renderedContent(member, id)).toBe(final);
    expect(events.filter((e) => e.type === "update_message")).toEqual([
      {
        id: expect.any(Number),
        type: "update_message",
        user_id: null,
        rendering_only: true,
        message_id: id,
        message_ids: [id],
        flags: [],
        edit_timestamp: expect.any(Number),
        content: `[later.png](${url})`,
        rendered_content: final,
      },
    ]);
    // The edit history is untouched: a rendering update is not an edit.
    const history = await org.api(member, "GET", `/messages/${id}/history`);
    expect(history.body.message_history).toHaveLength(1);
  });

  it("an edit that links an image renders its preview; a placeholder is rewritten without a history entry", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs edit");
    const ready = await uploadImage(member, "ready.png", await pngBytes(40, 40), "image/png");
    const pending = await uploadImage(member, "pending.png", await pngBytes(60, 30), "image/png");
    await forgetThumbnails(pending);
    const id = await send(member, "thumbs edit", "pictures to come");
    const edit = await org.api(member, "PATCH", `/messages/${id}`, { content: `[ready.png](${ready}) [pending.png](${pending})` });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    await org.stack.drainDeferredWork();
    const content = await renderedContent(member, id);
    expect(content).toContain(`<img data-original-dimensions="40x40" src="/user_uploads/thumbnail/${pathOf(ready)}/840x560.webp">`);
    expect(content).toContain(`<img data-original-dimensions="60x30" src="/user_uploads/thumbnail/${pathOf(pending)}/840x560.webp">`);
    expect(content).not.toContain("image-loading-placeholder");
    const history = await org.api(member, "GET", `/messages/${id}/history`);
    expect(history.body.message_history).toHaveLength(2);
    expect((await attachment(ready)).messages.map((m) => m.id)).toEqual([id]);
  });

  it("a thumbnail requested before it is made is made on the spot", async () => {
    const { member } = org.users;
    const url = await uploadImage(member, "demand.png", await pngBytes(50, 40), "image/png");
    await forgetThumbnails(url);
    expect(await org.stack.deps.files.get(thumbnailObjectKey(pathOf(url), "840x560.webp"))).toBeUndefined();

    const served = await fetchFile(org, member, `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`);
    expect(await imageInfo(served.bytes)).toEqual({ format: "webp", width: 50, height: 40, pages: 1 });
    expect((await attachment(url)).image!.thumbnails.map((t) => t.name)).toEqual(["840x560.webp"]);
  });

  it("an image whose bytes do not decode loses its placeholder preview", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs broken");
    // The header parses (so the upload records an image), the pixel data ends early.
    const sharp = (await import("sharp")).default;
    const noisy = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 30 } } })
      .png()
      .toBuffer();
    const url = await uploadImage(member, "broken.png", new Uint8Array(noisy.subarray(0, Math.floor(noisy.length / 3))), "image/png");
    // The upload's job found it undecodable and dropped its image metadata.
    const stored = await attachment(url);
    expect(stored.image).toBeUndefined();
    const plain = await send(member, "thumbs broken", `[broken.png](${url})`);
    expect(await renderedContent(member, plain)).toBe(`<p><a href="${url}">broken.png</a></p>`);

    // A message sent while the job had not yet found out shows a placeholder, which its job then removes.
    expect(await updateAttachmentImage(org.stack.deps, stored, { width: 400, height: 300, frames: 1, thumbnails: [] })).toBe(true);
    const watcher = queueClient(org, member);
    await watcher.register({ event_types: ["message", "update_message"], apply_markdown: true });
    const id = await send(member, "thumbs broken", `look [broken.png](${url})`);
    await org.stack.drainDeferredWork();
    const events = await watcher.poll();
    expect(events.map((e) => e.type)).toEqual(["message", "update_message"]);
    expect(events[0]!.message.content).toContain("image-loading-placeholder");
    expect(events[1]).toMatchObject({ rendering_only: true, rendered_content: `<p>look <a href="${url}">broken.png</a></p>` });
    expect((await attachment(url)).image).toBeUndefined();
    expect(await renderedContent(member, id)).toBe(`<p>look <a href="${url}">broken.png</a></p>`);
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`)).status).toBe(404);
  });

  it("a job for an upload already found not to be an image still removes a placeholder rendered before", async () => {
    const { member } = org.users;
    await createStream(org, member, "thumbs late removal");
    const url = await uploadImage(member, "text.png", "plain text", "image/png");
    expect((await attachment(url)).image).toBeUndefined();
    const id = await send(member, "thumbs late removal", `[text.png](${url})`);
    const plain = await renderedContent(member, id);
    // As rendered by a send that read the attachment while it still had image metadata.
    const withPlaceholder = `${plain}\n${placeholderDiv(url, "text.png")}`;
    expect(await updateRenderedContent(org.stack.deps, id, plain, withPlaceholder)).toBe(true);
    await runThumbnail(org.stack.deps, { realm_id: org.realm.id, path_ids: [pathOf(url)] });
    expect(await renderedContent(member, id)).toBe(plain);
  });

  it("thumbnails follow the image's access rules", async () => {
    const { member, member2, guest } = org.users;
    const privateId = await createStreamId(org, member, "thumbs private", { inviteOnly: true });
    expect(privateId).toBeGreaterThan(0);
    const url = await uploadImage(member, "secret.png", await pngBytes(20, 20), "image/png");
    await send(member, "thumbs private", `[secret.png](${url})`);
    const thumb = `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`;
    expect((await getRoot(org, member, thumb)).status).toBe(302);
    const refused = await getRoot(org, member2, thumb);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ result: "error", msg: "You are not authorized to view this file." });
    expect((await getRoot(org, guest, thumb)).status).toBe(403);
    expect((await getRoot(org, null, thumb)).status).toBe(401);
    // Another organization's path, a missing file, no format: 404.
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${org.realm.id + 1000}/ab/cd/x.png/840x560.webp`)).status).toBe(404);
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${org.realm.id}/ab/cd/x.png/840x560.webp`)).status).toBe(404);
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${pathOf(url)}`)).status).toBe(404);
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${pathOf(url)}/huge.webp`)).status).toBe(404);
  });

  it("deleting an image deletes its thumbnails", async () => {
    const { member } = org.users;
    const url = await uploadImage(member, "gone.png", await pngBytes(20, 10), "image/png");
    const stored = await attachment(url);
    const key = thumbnailObjectKey(stored.path_id, "840x560.webp");
    expect(await org.stack.deps.files.get(key)).toBeDefined();
    const res = await org.api(member, "DELETE", `/attachments/${stored.id}`);
    expect(res.status).toBe(200);
    expect(await org.stack.deps.files.get(key)).toBeUndefined();
    expect((await getRoot(org, member, `/user_uploads/thumbnail/${pathOf(url)}/840x560.webp`)).status).toBe(404);
  });
});
