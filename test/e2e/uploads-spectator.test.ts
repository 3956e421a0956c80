import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId } from "./streams-helpers.js";
import { fetchFile, getRoot, putForeignAttachment, uploadFile } from "./uploads-helpers.js";

const NOT_LOGGED_IN = {
  result: "error",
  code: "UNAUTHORIZED",
  msg: "Not logged in: API authentication or user session required",
};
const NOT_FOUND = { result: "error", code: "BAD_REQUEST", msg: "This file does not exist or has been deleted." };
const FORBIDDEN = { result: "error", code: "BAD_REQUEST", msg: "You are not authorized to view this file." };

describe("spectators and uploaded files", () => {
  const org = useTestOrg();
  let webPublicId = 0;
  let publicId = 0;
  let privateId = 0;

  async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
    const res = await org.api(user, "POST", "/messages", params);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  }

  /** Uploads a file as `member` and links it in a message to `to` (a stream ID, or a user ID for a DM). */
  async function linkedFile(name: string, bytes: string | Uint8Array, to: { stream: number } | { user: number }, type?: string) {
    const url = await uploadFile(org, org.users.member, name, bytes, type);
    const content = `[${name}](${url})`;
    if ("stream" in to) await send(org.users.member, { type: "stream", to: to.stream, topic: "files", content });
    else await send(org.users.member, { type: "direct", to: JSON.stringify([to.user]), content });
    return url;
  }

  async function setSpectatorAccess(on: boolean) {
    const res = await org.api(org.users.owner, "PATCH", "/realm", { enable_spectator_access: on });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  async function expectRefusedToSpectator(path: string) {
    const res = await getRoot(org, null, path);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(NOT_LOGGED_IN);
  }

  /** GET at the site root with an arbitrary Host header (`fetch` cannot set one). */
  function getWithHost(host: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: org.stack.port, method: "GET", path, headers: { host } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  beforeAll(async () => {
    await setSpectatorAccess(true);
    const web = await org.api(org.users.owner, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "spectator web" }],
      is_web_public: true,
      principals: [org.users.owner.id, org.users.member.id],
    });
    expect(web.status, JSON.stringify(web.body)).toBe(200);
    webPublicId = (await org.api(org.users.owner, "GET", "/get_stream_id", { stream: "spectator web" })).body.stream_id;
    publicId = await createStreamId(org, org.users.member, "spectator public");
    privateId = await createStreamId(org, org.users.member, "spectator private", { inviteOnly: true });
  });

  it("serves a spectator a file a web-public stream's message links: 302 to the bytes", async () => {
    const url = await linkedFile("web.txt", "for everyone", { stream: webPublicId });
    const got = await fetchFile(org, null, url);
    expect(got.location).toContain("X-Amz-Expires=60");
    expect(new TextDecoder().decode(got.bytes)).toBe("for everyone");
    expect(new URL(got.location).searchParams.get("response-content-disposition")).toBe('inline; filename="web.txt"');
  });

  it("refuses spectators while the organization does not allow them", async () => {
    const url = await linkedFile("web-off.txt", "off", { stream: webPublicId });
    await setSpectatorAccess(false);
    try {
      await expectRefusedToSpectator(url);
      // Users keep their access.
      expect((await fetchFile(org, org.users.member2, url)).bytes.length).toBe(3);
    } finally {
      await setSpectatorAccess(true);
    }
    expect((await getRoot(org, null, url)).status).toBe(302);
  });

  it("refuses spectators once the stream is no longer web-public", async () => {
    const res = await org.api(org.users.owner, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "spectator web later public" }],
      is_web_public: true,
      principals: [org.users.owner.id, org.users.member.id],
    });
    expect(res.status).toBe(200);
    const streamId = (await org.api(org.users.owner, "GET", "/get_stream_id", { stream: "spectator web later public" })).body.stream_id;
    const url = await linkedFile("demoted.txt", "demoted", { stream: streamId });
    expect((await getRoot(org, null, url)).status).toBe(302);

    const patch = await org.api(org.users.owner, "PATCH", `/streams/${streamId}`, { is_web_public: false });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    await expectRefusedToSpectator(url);
    expect((await fetchFile(org, org.users.member2, url)).bytes.length).toBe(7);
  });

  it("refuses spectators once the linking message moves out of the web-public stream", async () => {
    const url = await uploadFile(org, org.users.member, "moved.txt", "moved");
    const messageId = await send(org.users.member, { type: "stream", to: webPublicId, topic: "move me", content: `[m](${url})` });
    expect((await getRoot(org, null, url)).status).toBe(302);
    const move = await org.api(org.users.owner, "PATCH", `/messages/${messageId}`, { stream_id: publicId });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    await expectRefusedToSpectator(url);
  });

  it("refuses spectators a file only a public stream, a private stream or a direct message links, or no message", async () => {
    const inPublic = await linkedFile("public.txt", "p", { stream: publicId });
    const inPrivate = await linkedFile("private.txt", "p", { stream: privateId });
    const inDm = await linkedFile("dm.txt", "d", { user: org.users.member2.id });
    const unclaimed = await uploadFile(org, org.users.member, "unclaimed.txt", "u");
    for (const url of [inPublic, inPrivate, inDm, unclaimed]) await expectRefusedToSpectator(url);
  });

  it("answers 404 to a spectator for a missing path, another organization's path and a host naming no organization", async () => {
    const missing = await getRoot(org, null, `/user_uploads/${org.realm.id}/ab/nothing/here.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(NOT_FOUND);

    const foreignPath = await putForeignAttachment(org, 999_998, "y", true);
    const foreign = await getRoot(org, null, `/user_uploads/${foreignPath}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(NOT_FOUND);

    const url = await linkedFile("nohost.txt", "n", { stream: webPublicId });
    const noOrg = await getWithHost(`no-such-org.${org.stack.deps.config.ROOT_DOMAIN}`, encodeURI(url));
    expect(noOrg).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("leaves users' access unchanged: a guest is refused a public stream's file a member gets", async () => {
    const url = await linkedFile("guest.txt", "g", { stream: publicId });
    const guest = await getRoot(org, org.users.guest, url);
    expect(guest.status).toBe(403);
    expect(await guest.json()).toEqual(FORBIDDEN);
    expect((await fetchFile(org, org.users.member2, url)).bytes.length).toBe(1);
  });
});

describe("GET /user_uploads/download/{realm_id_str}/{filename}", () => {
  const org = useTestOrg();
  const downloadPath = (url: string) => url.replace("/user_uploads/", "/user_uploads/download/");

  it("redirects to a presigned URL that downloads the file, an image too", async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 9, 8, 7]);
    const url = await uploadFile(org, org.users.member, "photo.png", bytes, "image/png");
    const got = await fetchFile(org, org.users.member, downloadPath(url));
    expect(got.location).toContain("X-Amz-Expires=60");
    expect(got.bytes).toEqual(bytes);
    // S3 answers with the disposition the signed URL asks for (the local emulator ignores it, so the URL is checked).
    expect(new URL(got.location).searchParams.get("response-content-disposition")).toBe('attachment; filename="photo.png"');
    // The plain route shows the same image in place.
    const plain = await fetchFile(org, org.users.member, url);
    expect(new URL(plain.location).searchParams.get("response-content-disposition")).toBe('inline; filename="photo.png"');
  });

  it("refuses as the plain route: 403 to a non-subscriber of a private stream, 404 for a missing file, 401 without credentials", async () => {
    const { member, member2, moderator } = org.users;
    const streamId = await createStreamId(org, member, "download private", { inviteOnly: true, principals: [member.id, moderator.id] });
    const url = await uploadFile(org, member, "secret.txt", "secret");
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: `[s](${url})` });
    expect(sent.status).toBe(200);

    const refused = await getRoot(org, member2, downloadPath(url));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(FORBIDDEN);
    expect((await fetchFile(org, moderator, downloadPath(url))).bytes.length).toBe(6);

    const missing = await getRoot(org, member, `/user_uploads/download/${org.realm.id}/ab/nothing/here.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(NOT_FOUND);

    const anonymous = await getRoot(org, null, downloadPath(url));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(NOT_LOGGED_IN);
  });

  it("serves a spectator a web-public stream's file as a download", async () => {
    const on = await org.api(org.users.owner, "PATCH", "/realm", { enable_spectator_access: true });
    expect(on.status).toBe(200);
    const res = await org.api(org.users.owner, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "download web" }],
      is_web_public: true,
    });
    expect(res.status).toBe(200);
    const streamId = (await org.api(org.users.owner, "GET", "/get_stream_id", { stream: "download web" })).body.stream_id;
    const url = await uploadFile(org, org.users.owner, "web.gif", "GIF89a", "image/gif");
    const sent = await org.api(org.users.owner, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: `[g](${url})` });
    expect(sent.status).toBe(200);
    const got = await fetchFile(org, null, downloadPath(url));
    expect(new TextDecoder().decode(got.bytes)).toBe("GIF89a");
    expect(new URL(got.location).searchParams.get("response-content-disposition")).toBe('attachment; filename="web.gif"');
  });
});
