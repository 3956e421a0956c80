import { expect } from "vitest";
import type { TestUser } from "../support/api-client.js";
import type { TestOrg } from "../support/local-stack.js";
import { putAttachment } from "../../shared/data/attachments.js";

/** Basic credentials of a test user. */
export function basicAuth(user: TestUser): string {
  return `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}`;
}

/**
 * `POST /user_uploads` with a multipart body of the given file parts (as
 * the apps send it: one `file` part with a name and a type).
 */
export async function uploadParts(
  org: TestOrg,
  user: TestUser | null,
  parts: { field?: string; name: string; type?: string; bytes: Uint8Array | string }[],
): Promise<{ status: number; body: Record<string, any> }> {
  const form = new FormData();
  for (const p of parts) {
    const bytes = typeof p.bytes === "string" ? new TextEncoder().encode(p.bytes) : p.bytes;
    form.append(p.field ?? "file", new Blob([new Uint8Array(bytes)], p.type ? { type: p.type } : {}), p.name);
  }
  const res = await fetch(`${org.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: user ? { authorization: basicAuth(user) } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Uploads one file and returns its URL path; asserts success. */
export async function uploadFile(org: TestOrg, user: TestUser, name: string, bytes: Uint8Array | string, type?: string) {
  const res = await uploadParts(org, user, [{ name, bytes, type }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.url as string;
}

/** GETs a path at the site root without following redirects. */
export async function getRoot(org: TestOrg, user: TestUser | null, path: string): Promise<Response> {
  return fetch(`${org.url}${path}`, { headers: user ? { authorization: basicAuth(user) } : {}, redirect: "manual" });
}

/** Follows a served file's redirect and returns the bytes and headers S3 answered with. */
export async function fetchFile(org: TestOrg, user: TestUser | null, path: string) {
  const res = await getRoot(org, user, path);
  expect(res.status, await res.clone().text()).toBe(302);
  const location = res.headers.get("location")!;
  const file = await fetch(location);
  return { redirect: res, location, file, bytes: new Uint8Array(await file.arrayBuffer()) };
}


/**
 * Stores a one-byte attachment record of another organization (realm ID
 * this one's + 1000), public in it (`webPublic`: web-public too); no bytes.
 * @returns its path ID
 */
export async function putForeignAttachment(org: TestOrg, id: number, letter: string, webPublic: boolean): Promise<string> {
  const otherRealm = org.realm.id + 1000;
  const path = `${otherRealm}/cd/${letter.repeat(24)}/foreign.txt`;
  await putAttachment(
    org.stack.deps,
    {
      id,
      realm_id: otherRealm,
      owner_id: org.users.member.id,
      file_name: "foreign.txt",
      path_id: path,
      size: 1,
      content_type: "text/plain",
      create_time: Date.now(),
      messages: [],
      is_realm_public: true,
      is_web_public: webPublic,
    },
    null,
  );
  return path;
}
