import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes, sendFiles } from "./image-upload-helpers.js";
import { basicAuth, fetchFile, uploadParts } from "./uploads-helpers.js";

/**
 * Black-box checks of the files endpoints against Zulip's behaviour where
 * the other files tests do not reach: how Django reads multipart bodies
 * (one file per field name, client paths and long names cut), empty files,
 * and requests that must leave nothing behind.
 */
const org = useTestOrg();
const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

/** A hand-built multipart body, for part headers FormData cannot express. */
async function rawMultipart(user: TestUser, path: string, parts: { disposition: string; type?: string; body: string }[]) {
  const boundary = "----audit-boundary-7d2";
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

async function attachmentNamed(user: TestUser, url: string) {
  const list = (await org.api(user, "GET", "/attachments")).body.attachments as { path_id: string; name: string; size: number }[];
  return list.find((a) => `/user_uploads/${a.path_id}` === url);
}

describe("POST /user_uploads: multipart bodies as Django reads them", () => {
  it("probe: two parts under one field name are one file, the last one", async () => {
    const res = await uploadParts(org, org.users.member, [
      { name: "first.txt", bytes: "first" },
      { name: "second.txt", bytes: "second" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toMatch(/\/second\.txt$/);
    expect(new TextDecoder().decode((await fetchFile(org, org.users.member, res.body.url)).bytes)).toBe("second");
  });

  it("probe: an empty file is stored", async () => {
    const res = await uploadParts(org, org.users.member, [{ name: "empty.txt", bytes: "" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await attachmentNamed(org.users.member, res.body.url)).toMatchObject({ name: "empty.txt", size: 0 });
  });

  it("probe: a client path in the name keeps its last segment", async () => {
    const res = await uploadParts(org, org.users.member, [{ name: "C:\\Users\\me\\notes.txt", bytes: "n" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toMatch(/\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/notes\.txt$/);
    expect(await attachmentNamed(org.users.member, res.body.url)).toMatchObject({ name: "notes.txt" });
    const slash = await rawMultipart(org.users.member, "/user_uploads", [
      { disposition: 'name="file"; filename="a/b/report.txt"', type: "text/plain", body: "r" },
    ]);
    expect(slash.status, JSON.stringify(slash.body)).toBe(200);
    expect(slash.body.url).toMatch(/\/report\.txt$/);
  });

  it("probe: a 2,000-character name is cut to 255 characters, its extension kept", async () => {
    const name = `${"n".repeat(2000)}.txt`;
    const res = await uploadParts(org, org.users.member, [{ name, bytes: "long" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kept = `${"n".repeat(251)}.txt`;
    expect(res.body.url).toMatch(new RegExp(`/${kept}$`));
    expect(await attachmentNamed(org.users.member, res.body.url)).toMatchObject({ name: kept });
    expect(new TextDecoder().decode((await fetchFile(org, org.users.member, res.body.url)).bytes)).toBe("long");
  });

  it("probe: 255 four-byte letters fit the path's key limits", async () => {
    const name = `${"\u{20000}".repeat(300)}.txt`;
    const res = await uploadParts(org, org.users.member, [{ name, bytes: "wide" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await attachmentNamed(org.users.member, res.body.url)).toMatchObject({ name: `${"\u{20000}".repeat(251)}.txt` });
    expect(Buffer.byteLength(decodeURIComponent(res.body.url.split("/").pop()), "utf8")).toBeLessThanOrEqual(900);
    expect(new TextDecoder().decode((await fetchFile(org, org.users.member, encodeURI(res.body.url))).bytes)).toBe("wide");
  });

  it("probe: a part named '..' or with no file name is no file", async () => {
    const dots = await rawMultipart(org.users.member, "/user_uploads", [{ disposition: 'name="file"; filename=".."', body: "x" }]);
    expect(dots.body).toEqual(err("You must specify a file to upload"));
    const empty = await rawMultipart(org.users.member, "/user_uploads", [{ disposition: 'name="file"; filename=""', body: "x" }]);
    expect(empty.body).toEqual(err("You must specify a file to upload"));
  });
});

describe("probes: other routes", () => {
  it("probe: avatar with two parts under one field name takes the last", async () => {
    const a = await pngBytes(10, 10, "#ff0000");
    const b = await pngBytes(20, 20, "#00ff00");
    const res = await sendFiles(org, org.users.member2, "POST", "/users/me/avatar", [
      { field: "file", name: "a.png", type: "image/png", bytes: a },
      { field: "file", name: "b.png", type: "image/png", bytes: b },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("probe: delete attachment with a non-numeric id", async () => {
    const res = await org.api(org.users.member, "DELETE", "/attachments/abc");
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: err("Invalid attachment") });
  });

  it("probe: emoji name with a space is stored with an underscore", async () => {
    const png = await pngBytes(30, 30);
    const res = await sendFiles(org, org.users.member, "POST", `/realm/emoji/${encodeURIComponent(" party time ")}`, [
      { name: "e.png", type: "image/png", bytes: png },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const emoji = Object.values((await org.api(org.users.member, "GET", "/realm/emoji")).body.emoji as Record<string, any>);
    expect(emoji.some((e) => e.name === "party_time")).toBe(true);
  });

  it("probe: wrong method", async () => {
    const res = await org.api(org.users.member, "PUT", "/user_uploads");
    expect({ status: res.status, body: res.body }).toEqual({ status: 405, body: { result: "error", msg: "Method Not Allowed", code: "BAD_REQUEST" } });
    const icon = await org.api(org.users.admin, "PATCH", "/realm/icon");
    expect(icon.status).toBe(405);
  });
});
