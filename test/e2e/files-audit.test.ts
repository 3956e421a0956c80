import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { animatedGifBytes, fetchServedImage, imageInfo, pngBytes, sendFiles } from "./image-upload-helpers.js";
import { basicAuth, fetchFile, uploadParts } from "./uploads-helpers.js";

/**
 * The files endpoints where Zulip's behaviour comes from Django and libvips
 * rather than from its views: multipart bodies read as `request.FILES`
 * (one file per field name, client paths dropped, names cut to 255
 * characters, nameless parts no file), `BadImageError`'s `BAD_IMAGE` code
 * and pixel limit, and the square geometry of custom emoji.
 */
const org = useTestOrg();
const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const badImage = (msg: string) => ({ result: "error", msg, code: "BAD_IMAGE" });

/** A hand-built multipart body, for part headers FormData cannot express. */
async function rawMultipart(user: TestUser, path: string, parts: { disposition: string; type?: string; body: string }[]) {
  const boundary = "----files-audit-7d2";
  const chunks = parts.map(
    (p) => `--${boundary}\r\nContent-Disposition: form-data; ${p.disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n${p.body}\r\n`,
  );
  const res = await fetch(`${org.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: basicAuth(user), "content-type": `multipart/form-data; boundary=${boundary}` },
    body: `${chunks.join("")}--${boundary}--\r\n`,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The caller's attachment behind an upload URL, as `GET /attachments` lists it. */
async function attachmentOf(user: TestUser, url: string) {
  const list = (await org.api(user, "GET", "/attachments")).body.attachments as { path_id: string; name: string; size: number }[];
  return list.find((a) => `/user_uploads/${a.path_id}` === decodeURIComponent(url));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * A GIF whose header claims `frames` frames of `width`×`height` pixels with
 * (almost) no pixel data: the header alone must refuse it, before any decoding.
 */
function hugeGif(width: number, height: number, frames: number): Uint8Array {
  const le = (n: number) => [n & 255, n >> 8];
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
  const bytes = [...ascii("GIF89a"), ...le(width), ...le(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  bytes.push(0x21, 0xff, 0x0b, ...ascii("NETSCAPE2.0"), 3, 1, 0, 0, 0);
  for (let i = 0; i < frames; i++) {
    bytes.push(0x21, 0xf9, 4, 0, 10, 0, 0, 0);
    // An image descriptor, then LZW data of just the clear and end codes.
    bytes.push(0x2c, 0, 0, 0, 0, ...le(width), ...le(height), 0, 2, 1, 0x2c, 0);
  }
  bytes.push(0x3b);
  return new Uint8Array(bytes);
}

describe("POST /user_uploads reads the body as Django's request.FILES", () => {
  it("takes the last of two parts under one field name", async () => {
    const res = await uploadParts(org, org.users.member, [
      { name: "first.txt", bytes: "first" },
      { name: "second.txt", bytes: "second" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toMatch(/\/second\.txt$/);
    expect(text((await fetchFile(org, org.users.member, res.body.url)).bytes)).toBe("second");
    expect(await attachmentOf(org.users.member, res.body.url)).toMatchObject({ name: "second.txt", size: 6 });
  });

  it("stores an empty file, and keeps only the last segment of a client path", async () => {
    const empty = await uploadParts(org, org.users.member, [{ name: "empty.txt", bytes: "" }]);
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(await attachmentOf(org.users.member, empty.body.url)).toMatchObject({ name: "empty.txt", size: 0 });
    const windows = await uploadParts(org, org.users.member, [{ name: "C:\\Users\\me\\notes.txt", bytes: "n" }]);
    expect(windows.body.url).toMatch(new RegExp(`^/user_uploads/${org.realm.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/notes\\.txt$`));
    expect(await attachmentOf(org.users.member, windows.body.url)).toMatchObject({ name: "notes.txt" });
    const unix = await rawMultipart(org.users.member, "/user_uploads", [
      { disposition: 'name="file"; filename="a/b/report.txt"', type: "text/plain", body: "r" },
    ]);
    expect(unix.body.url).toMatch(/\/[A-Za-z0-9_-]{24}\/report\.txt$/);
  });

  it("cuts a 2,000-character name to 255 characters, keeping its extension", async () => {
    const res = await uploadParts(org, org.users.member, [{ name: `${"n".repeat(2000)}.txt`, bytes: "long" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kept = `${"n".repeat(251)}.txt`;
    expect(res.body.url.endsWith(`/${kept}`)).toBe(true);
    expect(await attachmentOf(org.users.member, res.body.url)).toMatchObject({ name: kept, size: 4 });
    expect(text((await fetchFile(org, org.users.member, res.body.url)).bytes)).toBe("long");
  });

  it("fits a name of 255 four-byte letters into the key limits of S3 and DynamoDB", async () => {
    const wide = "\u{20000}";
    const res = await uploadParts(org, org.users.member, [{ name: `${wide.repeat(300)}.txt`, bytes: "wide" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The attachment keeps the client's name (Django's 255 characters); the path's name is cut to 900 bytes.
    expect(await attachmentOf(org.users.member, res.body.url)).toMatchObject({ name: `${wide.repeat(251)}.txt` });
    expect(decodeURIComponent(res.body.url).split("/").pop()).toBe(`${wide.repeat(224)}.txt`);
    expect(text((await fetchFile(org, org.users.member, encodeURI(res.body.url))).bytes)).toBe("wide");
  });

  it("treats a part named '..', or without a file name, as no file", async () => {
    const before = (await org.api(org.users.member2, "GET", "/attachments")).body.attachments.length;
    const dots = await rawMultipart(org.users.member2, "/user_uploads", [{ disposition: 'name="file"; filename=".."', body: "x" }]);
    expect(dots).toEqual({ status: 400, body: err("You must specify a file to upload") });
    const nameless = await rawMultipart(org.users.member2, "/user_uploads", [
      { disposition: 'name="file"', type: "application/octet-stream", body: "x" },
    ]);
    expect(nameless).toEqual({ status: 400, body: err("You must specify a file to upload") });
    expect((await org.api(org.users.member2, "GET", "/attachments")).body.attachments).toHaveLength(before);
  });
});

describe("GET /api/v1/user_uploads/... (get-file-temporary-url)", () => {
  it("percent-encodes a non-ASCII file name in the temporary URL, which serves the file", async () => {
    const res = await uploadParts(org, org.users.member, [{ name: "résumé 2.txt", bytes: "cv" }]);
    expect(res.body.url).toMatch(/\/résumé-2\.txt$/);
    const temporary = await org.api(org.users.member, "GET", encodeURI(res.body.url));
    expect(temporary.status).toBe(200);
    expect(temporary.body.url).toMatch(/^\/user_uploads\/temporary\/[0-9A-F]{64}\/r%C3%A9sum%C3%A9-2\.txt$/);
    expect(text((await fetchFile(org, null, temporary.body.url)).bytes)).toBe("cv");
  });
});

describe("images: Zulip's BadImageError and emoji geometry", () => {
  it("an avatar body with two parts under one field name sets the last image", async () => {
    const { member2 } = org.users;
    const before = (await org.api(member2, "GET", "/users/me")).body.avatar_version as number;
    const res = await sendFiles(org, member2, "POST", "/users/me/avatar", [
      { field: "file", name: "red.png", type: "image/png", bytes: await pngBytes(10, 10, "#ff0000") },
      { field: "file", name: "green.png", type: "image/png", bytes: await pngBytes(20, 20, "#00ff00") },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = (await org.api(member2, "GET", "/users/me")).body;
    expect(me.avatar_version).toBe(before + 1);
    const stats = await sharp((await fetchServedImage(org, res.body.avatar_url)).bytes).stats();
    expect(stats.channels.map((c) => Math.round(c.mean)).slice(0, 3)).toEqual([0, 255, 0]);
  });

  it("takes a TIFF avatar (one of Zulip's accepted image types), stored as PNG", async () => {
    const tiff = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: "#123456" } }).tiff().toBuffer());
    const res = await sendFiles(org, org.users.moderator, "POST", "/users/me/avatar", [{ name: "a.tiff", type: "image/tiff", bytes: tiff }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await imageInfo((await fetchServedImage(org, res.body.avatar_url)).bytes)).toEqual({ format: "png", width: 100, height: 100, pages: 1 });
  });

  it("refuses images too large to decode with `Image size exceeds limit.` and bad formats with BAD_IMAGE, changing nothing", async () => {
    const { member, admin } = org.users;
    const emojiBefore = Object.keys((await org.api(member, "GET", "/realm/emoji")).body.emoji).length;
    const versionBefore = (await org.api(member, "GET", "/users/me")).body.avatar_version;
    const huge = [{ name: "huge.gif", type: "image/gif", bytes: hugeGif(7000, 6000, 1) }];
    expect((await sendFiles(org, member, "POST", "/users/me/avatar", huge)).body).toEqual(badImage("Image size exceeds limit."));
    expect((await sendFiles(org, admin, "POST", "/realm/icon", huge)).body).toEqual(badImage("Image size exceeds limit."));
    expect((await sendFiles(org, admin, "POST", "/realm/logo", huge, { night: "false" })).body).toEqual(badImage("Image size exceeds limit."));
    // Each frame is within the bound, all of them together are not: the animation would be decoded whole.
    const longAnimation = [{ name: "long.gif", type: "image/gif", bytes: hugeGif(5000, 5000, 2) }];
    const emoji = await sendFiles(org, member, "POST", "/realm/emoji/long_animation", longAnimation);
    expect({ status: emoji.status, body: emoji.body }).toEqual({ status: 400, body: badImage("Image size exceeds limit.") });
    const tiff = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).tiff().toBuffer());
    const tiffEmoji = await sendFiles(org, member, "POST", "/realm/emoji/tiffy", [{ name: "t.tiff", type: "image/tiff", bytes: tiff }]);
    expect(tiffEmoji.body).toEqual(badImage("Invalid image format"));
    expect(Object.keys((await org.api(member, "GET", "/realm/emoji")).body.emoji)).toHaveLength(emojiBefore);
    expect((await org.api(member, "GET", "/users/me")).body.avatar_version).toBe(versionBefore);
  });

  it("refuses a truncated image past its header with `Image is corrupted or truncated`, changing nothing", async () => {
    const { member, admin } = org.users;
    const png = await pngBytes(300, 200, "#336699");
    const truncated = [{ name: "t.png", type: "image/png", bytes: png.slice(0, Math.floor(png.length / 2)) }];
    const refusal = { status: 400, body: badImage("Image is corrupted or truncated") };
    const answer = async (res: Promise<{ status: number; body: Record<string, any> }>) => {
      const { status, body } = await res;
      return { status, body };
    };
    const before = {
      emoji: (await org.api(member, "GET", "/realm/emoji")).body.emoji,
      version: (await org.api(member, "GET", "/users/me")).body.avatar_version,
      bots: (await org.api(member, "GET", "/bots")).body.bots,
    };
    expect(await answer(sendFiles(org, member, "POST", "/users/me/avatar", truncated))).toEqual(refusal);
    expect(await answer(sendFiles(org, member, "POST", "/realm/emoji/truncated", truncated))).toEqual(refusal);
    expect(await answer(sendFiles(org, admin, "POST", "/realm/icon", truncated))).toEqual(refusal);
    expect(await answer(sendFiles(org, admin, "POST", "/realm/logo", truncated, { night: "true" }))).toEqual(refusal);
    const bot = sendFiles(org, member, "POST", "/bots", truncated, { full_name: "Bot truncated", short_name: "truncated" });
    expect(await answer(bot)).toEqual(refusal);
    expect((await org.api(member, "GET", "/realm/emoji")).body.emoji).toEqual(before.emoji);
    expect((await org.api(member, "GET", "/users/me")).body.avatar_version).toBe(before.version);
    expect((await org.api(member, "GET", "/bots")).body.bots).toEqual(before.bots);
  });

  it("a wide animated emoji keeps its frames padded to 64×64; its still is cropped to 64×64", async () => {
    const gif = await animatedGifBytes(128, 48);
    const res = await sendFiles(org, org.users.member, "POST", "/realm/emoji/wide_spinner", [{ name: "w.gif", type: "image/gif", bytes: gif }]);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const all = Object.values((await org.api(org.users.member, "GET", "/realm/emoji")).body.emoji as Record<string, any>);
    const emoji = all.find((e) => e.name === "wide_spinner" && !e.deactivated)!;
    const animated = await fetchServedImage(org, emoji.source_url);
    expect(await imageInfo(animated.bytes)).toEqual({ format: "gif", width: 64, height: 64, pages: 2 });
    // Padding is transparent: the corner of the first frame shows nothing.
    const corner = await sharp(animated.bytes).ensureAlpha().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[3]).toBe(0);
    expect(await imageInfo((await fetchServedImage(org, emoji.still_url)).bytes)).toEqual({ format: "png", width: 64, height: 64, pages: 1 });
  });
});

describe("roles on the files endpoints", () => {
  it("every role may upload and set its own avatar; only the uploader deletes an attachment", async () => {
    const { owner, admin, member, guest, bot } = org.users;
    for (const user of [guest, bot]) {
      const res = await uploadParts(org, user, [{ name: "mine.txt", bytes: "m" }]);
      expect({ user: user.email, status: res.status }).toEqual({ user: user.email, status: 200 });
    }
    const png = [{ name: "g.png", type: "image/png", bytes: await pngBytes(12, 12) }];
    expect((await sendFiles(org, guest, "POST", "/users/me/avatar", png)).body).toMatchObject({ result: "success" });

    const url = (await uploadParts(org, member, [{ name: "member-only.txt", bytes: "x" }])).body.url as string;
    const id = (await org.api(member, "GET", "/attachments")).body.attachments.find(
      (a: { path_id: string }) => `/user_uploads/${a.path_id}` === url,
    ).id as number;
    for (const user of [owner, admin, guest]) {
      const res = await org.api(user, "DELETE", `/attachments/${id}`);
      expect({ user: user.email, status: res.status, body: res.body }).toEqual({ user: user.email, status: 400, body: err("Invalid attachment") });
    }
    expect(await attachmentOf(member, url)).toMatchObject({ id, name: "member-only.txt" });
  });

  it("a custom emoji is deactivated by its author or an administrator only, whatever the caller's role", async () => {
    const { owner, moderator, member, guest, bot } = org.users;
    const png = [{ name: "e.png", type: "image/png", bytes: await pngBytes(16, 16) }];
    expect((await sendFiles(org, member, "POST", "/realm/emoji/roles_check", png)).body).toEqual({ result: "success", msg: "" });
    for (const user of [moderator, guest, bot]) {
      const res = await org.api(user, "DELETE", "/realm/emoji/roles_check");
      expect({ user: user.email, body: res.body }).toEqual({ user: user.email, body: err("Must be an organization administrator or emoji author") });
    }
    for (const user of [guest, bot]) expect((await org.api(user, "GET", "/realm/emoji")).status).toBe(200);
    expect((await org.api(owner, "DELETE", "/realm/emoji/roles_check")).body).toEqual({ result: "success", msg: "" });
  });
});
