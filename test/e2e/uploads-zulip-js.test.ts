import { createReadStream } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// The real client from npm, unchanged: its POST bodies are multipart/form-data.
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { useTestOrg } from "../support/local-stack.js";
import { fetchFile } from "./uploads-helpers.js";

const org = useTestOrg();

describe("zulip-js uploads", () => {
  it("uploads a file with callEndpoint and the uploader fetches the same bytes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zulip-js-upload-"));
    const rc = join(dir, "zuliprc");
    await writeZuliprc(rc, { site: org.url, email: org.users.member.email, apiKey: org.users.member.apiKey });
    const filePath = join(dir, "notes from zulip-js.txt");
    await writeFile(filePath, "uploaded by zulip-js");
    const zulip = await zulipInit({ zuliprc: rc });

    const res = await zulip.callEndpoint("/user_uploads", "POST", { file: createReadStream(filePath) });
    expect(res).toMatchObject({ result: "success", msg: "" });
    expect(res.url).toMatch(new RegExp(`^/user_uploads/${org.realm.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/notes-from-zulip-js\\.txt$`));
    const got = await fetchFile(org, org.users.member, res.url);
    expect(new TextDecoder().decode(got.bytes)).toBe("uploaded by zulip-js");
  });
});
