/**
 * The sign-up request's limit per source address (Zulip's
 * `sends_email_by_ip`), with rate limits on and a small limit, and the
 * sign-up posts' same-origin check.
 */
import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { readMailbox, waitForEmail } from "../support/mailbox.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { jsonCall } from "../support/web-session.js";
import { sendRequest } from "../support/api-client.js";

const org = useTestOrg({
  env: { RATE_LIMITS: "on", RATE_LIMIT_IP_EMAILS: "2", RATE_LIMIT_IP_EMAILS_WINDOW_SECONDS: "86400", RATE_LIMIT_IP_REQUESTS: "1000" },
});

describe("POST /json/signup/request limits", () => {
  it("mails at most RATE_LIMIT_IP_EMAILS times per source address; refusals before mailing do not count", async () => {
    const request = (email: string) => jsonCall(org.url, null, "POST", "/signup/request", { email });
    await withRealmSettings(org, { invite_required: false }, async () => {
      expect((await request("nope")).status).toBe(400);
      expect((await request("one@test.example")).body).toEqual({ result: "success", msg: "" });
      expect((await request("two@test.example")).body).toEqual({ result: "success", msg: "" });
      const third = await request("three@test.example");
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) });
    });
    await waitForEmail(org.stack.mailDir, (m) => m.template === "user_registration" && m.to === "one@test.example");
    await waitForEmail(org.stack.mailDir, (m) => m.template === "user_registration" && m.to === "two@test.example");
    // The refused request queued nothing (it is refused before its mail is queued).
    expect((await readMailbox(org.stack.mailDir)).some((m) => m.to === "three@test.example")).toBe(false);
  });

  it("refuses a sign-up posted from another origin with 403 CSRF_FAILED", async () => {
    const res = await sendRequest(`${org.url}/json/signup`, "POST", { key: "x", full_name: "x", password: "x" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ result: "error", code: "CSRF_FAILED" });
  });
});
