import { afterEach, describe, expect, it } from "vitest";
import { generateConfirmationKey } from "../../shared/auth/confirmation-key.js";
import { systemClock } from "../../shared/deps.js";
import { PASSWORD_RESET_TIMEOUT_SECONDS } from "../../shared/actions/users/password-reset.js";
import { useTestOrg } from "../support/local-stack.js";
import { readMailbox, waitForEmail } from "../support/mailbox.js";
import { jsonCall, postAccounts, webLogin } from "../support/web-session.js";
import { freshAddress, jsonFrom, linkError, linkKey } from "./accounts-helpers.js";

/**
 * Password reset through HTTP (shared/actions/users/password-reset.ts): the
 * request's one answer, the mail in the local mailbox, the link's one use,
 * the old password and the account's sessions gone after, earlier links
 * voided, expiry on a moved clock, and Zulip's mail limits with rate limits
 * on (each request from its own loopback address unless a test counts them).
 */
const org = useTestOrg({ env: { RATE_LIMITS: "on", RATE_LIMIT_IP_REQUESTS: "10000", RATE_LIMIT_USER_REQUESTS: "10000" } });

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const passwordOf = (name: string) => `${name}@test.example-password`;
const requestReset = (email: string, from = freshAddress()) => jsonFrom(org.url, from, "POST", "/accounts/password/reset", { email });
const resetMail = (email: string) => waitForEmail(org.stack.mailDir, (m) => m.template === "password_reset" && m.to === email);

/** Requests a reset for `email` and returns the key of the link this request mailed (the address's newest). */
async function mailedKey(email: string): Promise<string> {
  const resetMails = async () => (await readMailbox(org.stack.mailDir)).filter((m) => m.template === "password_reset" && m.to === email);
  const before = (await resetMails()).length;
  expect((await requestReset(email)).body).toEqual({ result: "success", msg: "" });
  const deadline = Date.now() + 15_000;
  for (let mails = await resetMails(); ; mails = await resetMails()) {
    if (mails.length > before) return linkKey(mails[mails.length - 1]!, org.url, "/accounts/password/reset/");
    if (Date.now() > deadline) throw new Error(`no new reset email to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("POST /json/accounts/password/reset", () => {
  it("mails an active account a one-use link to the reset page, named in the organization's words", async () => {
    // Prepare
    const user = await org.createUser("rita");
    // Act
    const res = await requestReset(user.email);
    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const mail = await resetMail(user.email);
    expect(mail.subject).toBe(`Reset your password for ${org.realm.name}`);
    expect(mail.text).toContain(org.realm.name);
    expect(mail.text).toContain("3 days");
    const key = linkKey(mail, org.url, "/accounts/password/reset/");
    expect(mail.html).toContain(`${org.url}/accounts/password/reset/${key}/`);
  });

  it("answers an address without an account exactly as one with an account, and mails it that there is none", async () => {
    // Prepare
    const user = await org.createUser("sam");
    const nobody = "nobody-here@test.example";
    // Act
    const known = await requestReset(user.email);
    const unknown = await requestReset(nobody);
    // Assess
    expect(unknown).toEqual(known);
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "password_reset_no_account" && m.to === nobody);
    expect(mail.text).toContain(`There is no account for ${nobody} in ${org.realm.name}`);
    expect(mail.links.some((l) => l.includes("/accounts/password/reset/"))).toBe(false);
  });

  it("mails a deactivated account that it is deactivated, with no link, and answers the same", async () => {
    // Prepare
    const user = await org.createUser("dora");
    expect((await org.api(org.users.admin, "DELETE", `/users/${user.id}`)).status).toBe(200);
    // Act
    const res = await requestReset(user.email);
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "password_reset_no_account" && m.to === user.email);
    expect(mail.text).toContain("has been deactivated");
    expect(mail.links.some((l) => l.includes("/accounts/password/reset/"))).toBe(false);
  });

  it("refuses a malformed address with Django's form message, before counting it", async () => {
    // Act
    const res = await requestReset("not an address");
    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Enter a valid email address.", code: "BAD_REQUEST" });
  });

  it("allows 2 requests per address per hour, then 429 RATE_LIMIT_HIT with Retry-After, for known and unknown addresses alike", async () => {
    // Prepare
    const user = await org.createUser("lim");
    const nobody = "lim-nobody@test.example";
    // Act
    const known = [await requestReset(user.email), await requestReset(user.email), await requestReset(user.email)];
    const unknown = [await requestReset(nobody), await requestReset(nobody), await requestReset(nobody)];
    // Assess
    for (const series of [known, unknown]) {
      expect(series.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(series[2]!.body).toEqual({ result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) });
      expect(series[2]!.body["retry-after"]).toBeGreaterThan(0);
      expect(series[2]!.body["retry-after"]).toBeLessThanOrEqual(3600 * 1.1);
      expect(Number(series[2]!.retryAfter)).toBe(Math.ceil(series[2]!.body["retry-after"]));
    }
    const mails = (await readMailbox(org.stack.mailDir)).filter((m) => m.to === user.email);
    expect(mails.length).toBeLessThanOrEqual(2);
  });

  it("allows 5 mail-sending requests per source address per day", async () => {
    // Prepare
    const from = freshAddress();
    const addresses = [1, 2, 3, 4, 5, 6].map((i) => `ip-${i}@test.example`);
    // Act
    const statuses: number[] = [];
    for (const email of addresses) statuses.push((await requestReset(email, from)).status);
    // Assess
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await requestReset(addresses[5]!)).status).toBe(200);
  });
});

describe("the reset link", () => {
  it("names the account, sets the password once, refuses the old password and ends the account's sessions", async () => {
    // Prepare
    const user = await org.createUser("nina");
    const session = await webLogin(org.url, user.email, passwordOf("nina"));
    const key = await mailedKey(user.email);
    // Act
    const shown = await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${key}`);
    const weak = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${key}`, { new_password: "abc" });
    const reset = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${key}`, { new_password: "a new secret" });
    // Assess
    expect(shown.body).toEqual({ result: "success", msg: "", email: user.email });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ result: "error", msg: "The password is too weak.", code: "BAD_REQUEST" });
    expect(reset.body).toEqual({ result: "success", msg: "" });
    const old = await postAccounts(org.url, "login", { username: user.email, password: passwordOf("nina") });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe("AUTHENTICATION_FAILED");
    expect((await postAccounts(org.url, "login", { username: user.email, password: "a new secret" })).status).toBe(200);
    const me = await jsonCall(org.url, session, "GET", "/users/me");
    expect(me.status).toBe(401);
    const again = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${key}`, { new_password: "another secret" });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(linkError("CONFIRMATION_USED"));
    expect((await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${key}`)).body).toEqual(linkError("CONFIRMATION_USED"));
    expect((await postAccounts(org.url, "login", { username: user.email, password: "another secret" })).status).toBe(401);
  });

  it("is void once the password changed by a later link, or by PATCH /settings", async () => {
    // Prepare
    const user = await org.createUser("otto");
    const first = await mailedKey(user.email);
    const second = await mailedKey(user.email);
    // Act
    const used = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${second}`, { new_password: "second secret" });
    const stale = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${first}`, { new_password: "first secret" });
    // Assess
    expect(used.body).toEqual({ result: "success", msg: "" });
    expect(stale.body).toEqual(linkError("CONFIRMATION_EXPIRED"));
    expect((await postAccounts(org.url, "login", { username: user.email, password: "second secret" })).status).toBe(200);

    // Prepare: a link, then a password change in the settings.
    const other = await org.createUser("olga");
    const key = await mailedKey(other.email);
    const changed = await org.api(other, "PATCH", "/settings", { old_password: passwordOf("olga"), new_password: "changed secret" });
    expect(changed.status).toBe(200);
    // Act + Assess
    expect((await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${key}`)).body).toEqual(linkError("CONFIRMATION_EXPIRED"));
  });

  it(`expires ${PASSWORD_RESET_TIMEOUT_SECONDS} seconds after it was mailed`, async () => {
    // Prepare
    const user = await org.createUser("eve");
    const key = await mailedKey(user.email);
    const mailedAt = Date.now();
    // Act
    org.stack.deps.clock = { now: () => mailedAt + (PASSWORD_RESET_TIMEOUT_SECONDS - 60) * 1000 };
    const stillValid = await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${key}`);
    org.stack.deps.clock = { now: () => mailedAt + (PASSWORD_RESET_TIMEOUT_SECONDS + 60) * 1000 };
    const expired = await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${key}`);
    const post = await jsonFrom(org.url, freshAddress(), "POST", `/accounts/password/reset/${key}`, { new_password: "too late now" });
    // Assess
    expect(stillValid.body).toEqual({ result: "success", msg: "", email: user.email });
    expect(expired.body).toEqual(linkError("CONFIRMATION_EXPIRED"));
    expect(post.body).toEqual(linkError("CONFIRMATION_EXPIRED"));
  });

  it("refuses keys that name no link, and a malformed key, as not found", async () => {
    // Act
    const unknown = await jsonFrom(org.url, freshAddress(), "GET", `/accounts/password/reset/${generateConfirmationKey()}`);
    const malformed = await jsonFrom(org.url, freshAddress(), "POST", "/accounts/password/reset/NOT-A-KEY", { new_password: "whatever 123" });
    // Assess
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(linkError("CONFIRMATION_NOT_FOUND"));
    expect(malformed.body).toEqual(linkError("CONFIRMATION_NOT_FOUND"));
  });
});
