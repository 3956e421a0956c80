import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";

/**
 * The file store behind uploads, avatars and emoji, against the S3 emulator
 * the local stack runs beside the SQS one.
 */
describe("file store (local S3)", () => {
  const org = useTestOrg();

  it("stores, reads, signs a GET URL for, and deletes an object", async () => {
    const files = org.stack.deps.files;
    const key = `${org.realm.id}/ab/cd/hello.txt`;
    const bytes = new TextEncoder().encode("hello, files");
    await files.put(key, bytes, { contentType: "text/plain", contentDisposition: 'attachment; filename="hello.txt"' });
    expect(new TextDecoder().decode(await files.get(key))).toBe("hello, files");

    const url = await files.presignGet(key, 60);
    expect(url).toContain("X-Amz-Signature=");
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe("hello, files");

    await files.delete([key, `${org.realm.id}/absent`]);
    expect(await files.get(key)).toBeUndefined();
  });
});
