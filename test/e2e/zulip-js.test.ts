import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// The real client from npm, unchanged: what third-party code talks to us with.
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

async function zuliprcFor(user: { email: string; apiKey: string }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
  const path = join(dir, "zuliprc");
  await writeZuliprc(path, { site: org.url, email: user.email, apiKey: user.apiKey });
  return path;
}

describe("zulip-js", () => {
  it("reads its own profile through a zuliprc", async () => {
    const zulip = await zulipInit({ zuliprc: await zuliprcFor(org.users.member) });
    const profile = await zulip.users.me.getProfile();
    expect(profile).toMatchObject({
      result: "success",
      user_id: org.users.member.id,
      email: "member@test.example",
      full_name: "Max Member",
      role: 400,
      is_admin: false,
    });
  });

  it("logs in with username and password (POST /fetch_api_key)", async () => {
    const zulip = await zulipInit({
      username: "member2@test.example",
      password: "member2@test.example-password",
      realm: org.url,
    });
    expect(zulip.config.apiKey).toBe(org.users.member2.apiKey);
  });
});
