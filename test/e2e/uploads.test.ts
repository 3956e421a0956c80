import { describe, expect, it } from "vitest";
import { updateRealmFields } from "../../shared/data/realms.js";
import { useTestOrg } from "../support/local-stack.js";
import { queueClient } from "./streams-helpers.js";
import { fetchFile, getRoot, putForeignAttachment, uploadFile, uploadParts } from "./uploads-helpers.js";

describe("POST /user_uploads", () => {
  const org = useTestOrg();

  it("stores the file under a random path with the sanitized name and answers url and uri", async () => {
    const res = await uploadParts(org, org.users.member, [{ name: "my résumé (final).txt", type: "text/plain", bytes: "hello" }]);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["msg", "result", "uri", "url"]);
    expect(res.body.uri).toBe(res.body.url);
    expect(res.body.url).toMatch(new RegExp(`^/user_uploads/${org.realm.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/my-résumé-final\\.txt$`));
    const { bytes, file } = await fetchFile(org, org.users.member, encodeURI(res.body.url));
    expect(new TextDecoder().decode(bytes)).toBe("hello");
    expect(file.headers.get("content-type")).toBe("text/plain");
  });

  it("names a file without a usable name uploaded-file", async () => {
    const url = await uploadFile(org, org.users.member, "???", "x");
    expect(url).toMatch(/\/uploaded-file$/);
  });

  it("refuses a request without a file, or with two", async () => {
    const none = await org.api(org.users.member, "POST", "/user_uploads", {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "You must specify a file to upload" });
    const two = await uploadParts(org, org.users.member, [
      { name: "a.txt", bytes: "a" },
      { field: "other", name: "b.txt", bytes: "b" },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "You may only upload one file at a time" });
  });

  it("refuses a file over the size limit with Zulip's error and stores nothing", async () => {
    const before = await org.api(org.users.member2, "GET", "/attachments");
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    const res = await uploadParts(org, org.users.member2, [{ name: "big.bin", bytes: big }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Uploaded file is larger than the allowed limit of 4 MiB",
    });
    const after = await org.api(org.users.member2, "GET", "/attachments");
    expect(after.body.attachments).toEqual(before.body.attachments);
  });

  it("refuses unauthenticated uploads", async () => {
    const res = await uploadParts(org, null, [{ name: "a.txt", bytes: "a" }]);
    expect(res.status).toBe(401);
  });

  it("reports max_file_upload_size_mib from the configuration and the quota in register", async () => {
    const res = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(res.body.max_file_upload_size_mib).toBe(4);
    expect(res.body.realm_upload_quota_mib).toBeNull();
  });

  it("enforces the organization's upload quota with Zulip's error", async () => {
    const deps = org.stack.deps;
    const used = (await org.api(org.users.member, "GET", "/attachments")).body.upload_space_used as number;
    // A quota just above what is used: 1 MiB more.
    const quotaMib = Math.ceil(used / (1024 * 1024)) + 1;
    await updateRealmFields(deps, org.realm.id, { upload_quota_mib: quotaMib });
    try {
      const room = quotaMib * 1024 * 1024 - used;
      const over = await uploadParts(org, org.users.member, [{ name: "over.bin", bytes: new Uint8Array(room + 1) }]);
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        result: "error",
        code: "REALM_UPLOAD_QUOTA",
        msg: "Upload would exceed your organization's upload quota.",
      });
      const fits = await uploadParts(org, org.users.member, [{ name: "fits.bin", bytes: new Uint8Array(room) }]);
      expect(fits.status).toBe(200);
      const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
      expect(reg.body.realm_upload_quota_mib).toBe(quotaMib);
      const again = await uploadParts(org, org.users.member, [{ name: "one.bin", bytes: new Uint8Array(1) }]);
      expect(again.body.code).toBe("REALM_UPLOAD_QUOTA");
    } finally {
      await updateRealmFields(deps, org.realm.id, { upload_quota_mib: null });
    }
  });

  it("sends the attachment add event to the uploader's clients", async () => {
    const client = queueClient(org, org.users.member2);
    await client.register({ event_types: ["attachment"] });
    const url = await uploadFile(org, org.users.member2, "event.txt", "evt");
    const event = await client.waitFor((e) => e.type === "attachment");
    expect(event).toMatchObject({
      type: "attachment",
      op: "add",
      attachment: { name: "event.txt", path_id: url.replace("/user_uploads/", ""), size: 3, messages: [] },
    });
    expect(event.upload_space_used).toBeGreaterThanOrEqual(3);
    const listed = await org.api(org.users.member2, "GET", "/attachments");
    expect(listed.body.attachments.find((a: any) => a.id === event.attachment.id)).toEqual(event.attachment);
  });
});

describe("GET /user_uploads/{realm_id_str}/{filename}", () => {
  const org = useTestOrg();

  it("redirects the uploader to a short-lived presigned URL serving the bytes", async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 1, 2, 3, 255]);
    const url = await uploadFile(org, org.users.member, "pic.png", bytes, "image/png");
    const got = await fetchFile(org, org.users.member, url);
    expect(got.location).toContain("X-Amz-Expires=60");
    expect(got.redirect.headers.get("cache-control")).toContain("private");
    expect(got.bytes).toEqual(bytes);
    expect(got.file.headers.get("content-type")).toBe("image/png");
    // S3 answers with the disposition the signed URL asks for (the local emulator ignores it, so the URL is checked).
    expect(new URL(got.location).searchParams.get("response-content-disposition")).toBe('inline; filename="pic.png"');
  });

  it("serves types a browser must not show in place as downloads", async () => {
    const url = await uploadFile(org, org.users.member, "page.html", "<script>1</script>", "text/html");
    const got = await fetchFile(org, org.users.member, url);
    expect(new URL(got.location).searchParams.get("response-content-disposition")).toBe('attachment; filename="page.html"');
  });

  it("answers 403 to another user while no message links the file, 404 for unknown paths and other organizations", async () => {
    const url = await uploadFile(org, org.users.member, "private.txt", "secret");
    const other = await getRoot(org, org.users.member2, url);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ result: "error", code: "BAD_REQUEST", msg: "You are not authorized to view this file." });

    const missing = await getRoot(org, org.users.member, `/user_uploads/${org.realm.id}/ab/nothing/here.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "This file does not exist or has been deleted.",
    });

    // A file of another organization, addressed from this one, is not found.
    const foreignPath = await putForeignAttachment(org, 999_999, "x", false);
    const foreign = await getRoot(org, org.users.member, `/user_uploads/${foreignPath}`);
    expect(foreign.status).toBe(404);
  });

  it("refuses unauthenticated requests", async () => {
    const url = await uploadFile(org, org.users.member, "anon.txt", "a");
    const res = await getRoot(org, null, url);
    expect(res.status).toBe(401);
  });

  it("gives a temporary URL (API form) that serves the file without credentials", async () => {
    const url = await uploadFile(org, org.users.member, "temp file.txt", "temporary");
    const res = await org.api(org.users.member, "GET", url);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["msg", "result", "url"]);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[0-9A-F]{64}\/temp-file\.txt$/);
    const got = await fetchFile(org, null, res.body.url);
    expect(new TextDecoder().decode(got.bytes)).toBe("temporary");

    const wrongName = await getRoot(org, null, res.body.url.replace(/temp-file\.txt$/, "other.txt"));
    expect(wrongName.status).toBe(400);
    expect(await wrongName.json()).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid filename" });
    const badToken = await getRoot(org, null, `/user_uploads/temporary/${"0".repeat(64)}/temp-file.txt`);
    expect(badToken.status).toBe(400);
    expect(await badToken.json()).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid token" });

    const refused = await org.api(org.users.member2, "GET", url);
    expect(refused.status).toBe(403);
  });
});
