import { afterEach, describe, expect, it } from "vitest";
import { EMAIL_CHANGE_LINK_VALIDITY_SECONDS } from "../../shared/actions/users/email-change.js";
import { generateConfirmationKey } from "../../shared/auth/confirmation-key.js";
import { systemClock } from "../../shared/deps.js";
import { validateEvent } from "../../shared/events/schemas.js";
import type { TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { readMailbox, waitForEmail } from "../support/mailbox.js";
import { freshAddress, jsonFrom, linkError, linkKey } from "./accounts-helpers.js";

/**
 * Email change through HTTP (shared/actions/users/email-change.ts): `PATCH
 * /settings` with `email` mails the new address a link; following it
 * (`POST /json/accounts/confirm_new_email/{key}`) changes the address, which
 * other clients hear of by `realm_user` events, and tells the old address.
 * Rate limits are on, for Zulip's `email_change_by_user` limit.
 */
const org = useTestOrg({ env: { RATE_LIMITS: "on", RATE_LIMIT_IP_REQUESTS: "10000", RATE_LIMIT_USER_REQUESTS: "10000" } });

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const EVERYONE = 1;
const ADMINS = 3;
const startChange = (user: TestUser, email: string) => org.api(user, "PATCH", "/settings", { email });
const confirm = (key: string) => jsonFrom(org.url, freshAddress(), "POST", `/accounts/confirm_new_email/${key}`);

/** Asks for a change and returns the key of the link mailed to the new address for it. */
async function requestedKey(user: TestUser, newEmail: string): Promise<string> {
  const mails = async () => (await readMailbox(org.stack.mailDir)).filter((m) => m.template === "email_change" && m.to === newEmail);
  const before = (await mails()).length;
  const res = await startChange(user, newEmail);
  expect(res.body).toEqual({ result: "success", msg: "" });
  const deadline = Date.now() + 15_000;
  for (let found = await mails(); ; found = await mails()) {
    if (found.length > before) return linkKey(found[found.length - 1]!, org.url, "/accounts/confirm_new_email/");
    if (Date.now() > deadline) throw new Error(`no email_change mail to ${newEmail}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first event `client` received or receives that matches (one poll may bring several). */
async function eventMatching(client: EventQueueClient, predicate: (event: Record<string, any>) => boolean): Promise<Record<string, any>> {
  return client.received.find(predicate) ?? client.waitFor(predicate);
}

function observer(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

describe("changing one's email address", () => {
  it("mails the new address a link; following it changes the address, tells other clients and the old address", async () => {
    // Prepare
    const user = await org.createUser("carl");
    expect((await org.api(user, "PATCH", "/settings", { email_address_visibility: EVERYONE })).status).toBe(200);
    const watcher = observer(await org.createUser("wendy"));
    await watcher.register({ event_types: ["realm_user"] });
    const newEmail = "carl.new@elsewhere.example";
    // Act
    const key = await requestedKey(user, newEmail);
    const before = await org.api(user, "GET", "/users/me");
    const confirmed = await confirm(key);
    // Assess
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "email_change" && m.to === newEmail);
    expect(mail.subject).toBe(`Confirm your new email address for ${org.realm.name}`);
    expect(mail.text).toContain(user.email);
    expect(before.body.delivery_email).toBe(user.email);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ result: "success", msg: "", email: newEmail });
    const delivery = await eventMatching(watcher, (e) => e.type === "realm_user" && e.person.delivery_email !== undefined);
    expect(delivery).toMatchObject({ op: "update", person: { user_id: user.id, delivery_email: newEmail } });
    const renamed = await eventMatching(watcher, (e) => e.type === "realm_user" && e.person.new_email !== undefined);
    expect(renamed.person).toEqual({ user_id: user.id, new_email: newEmail });
    const notice = await waitForEmail(org.stack.mailDir, (m) => m.template === "email_changed" && m.to === user.email);
    expect(notice.text).toContain(newEmail);
    const moved = { ...user, email: newEmail };
    const me = await org.api(moved, "GET", "/users/me");
    expect(me.body).toMatchObject({ email: newEmail, delivery_email: newEmail, user_id: user.id });
    expect((await org.api(user, "GET", "/users/me")).status).toBe(401);
    const login = await org.api(null, "POST", "/fetch_api_key", { username: newEmail, password: "carl@test.example-password" });
    expect(login.body).toMatchObject({ result: "success", email: newEmail, user_id: user.id });
    expect((await confirm(key)).body).toEqual(linkError("CONFIRMATION_USED"));
    // The old address is free again.
    expect((await org.api(org.users.admin, "POST", "/users", { email: user.email, password: "pw-123456", full_name: "New Carl" })).status).toBe(200);
  });

  it("keeps the API email of a user whose address only administrators see, and tells only those who may see it", async () => {
    // Prepare
    const user = await org.createUser("hanna");
    expect((await org.api(user, "PATCH", "/settings", { email_address_visibility: ADMINS })).status).toBe(200);
    const apiEmail = (await org.api(user, "GET", "/users/me")).body.email as string;
    const admin = observer(org.users.admin);
    const member = observer(await org.createUser("mia"));
    await Promise.all([admin.register({ event_types: ["realm_user"] }), member.register({ event_types: ["realm_user"] })]);
    const newEmail = "hanna.new@elsewhere.example";
    // Act
    const confirmed = await confirm(await requestedKey(user, newEmail));
    // Assess
    expect(confirmed.body).toEqual({ result: "success", msg: "", email: newEmail });
    expect(apiEmail).toBe(`user${user.id}@${new URL(org.url).hostname}`);
    const seen = await eventMatching(admin, (e) => e.type === "realm_user" && e.person.delivery_email !== undefined);
    expect(seen.person).toEqual({ user_id: user.id, delivery_email: newEmail });
    // The member hears of the gravatar (sent after the delivery_email event), but never of the address.
    const avatar = await eventMatching(member, (e) => e.type === "realm_user" && e.person.user_id === user.id && e.person.avatar_url !== undefined);
    expect(avatar.person.avatar_source).toBe("G");
    expect(member.received.some((e) => e.type === "realm_user" && ("delivery_email" in e.person || "new_email" in e.person))).toBe(false);
    expect((await org.api({ ...user, email: newEmail }, "GET", "/users/me")).body).toMatchObject({ email: apiEmail, delivery_email: newEmail });
  });

  it("answers {} and changes nothing for the current address", async () => {
    // Prepare
    const user = await org.createUser("ivo");
    // Act
    const res = await startChange(user, ` ${user.email} `);
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await readMailbox(org.stack.mailDir)).some((m) => m.template === "email_change" && m.to === user.email)).toBe(false);
  });

  it("refuses bad, taken and reserved addresses with Zulip's messages, and bots", async () => {
    // Prepare
    const user = await org.createUser("jan");
    const refusal = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
    // Act + Assess
    expect((await startChange(user, "not-an-address")).body).toEqual(refusal("Invalid address."));
    expect((await startChange(user, org.users.member.email)).body).toEqual(refusal("Already has an account."));
    expect((await startChange(user, user.email.toUpperCase())).body).toEqual(refusal("Already has an account."));
    expect((await startChange(user, "notification-bot@zulip.com")).body).toEqual(refusal("Reserved for system bots."));
    const gone = await org.createUser("gone");
    expect((await org.api(org.users.admin, "DELETE", `/users/${gone.id}`)).status).toBe(200);
    expect((await startChange(user, gone.email)).body).toEqual(refusal("Account has been deactivated."));
    const bot = await startChange(org.users.bot, "bot-new@elsewhere.example");
    expect(bot.status).toBe(400);
    expect(bot.body.msg).toBe("This endpoint does not accept bot requests.");
  });

  it("refuses members when the organization disables email changes, but not administrators", async () => {
    // Prepare
    const member = await org.createUser("kim");
    expect((await org.api(org.users.owner, "PATCH", "/realm", { email_changes_disabled: true })).status).toBe(200);
    try {
      // Act
      const refused = await startChange(member, "kim.new@elsewhere.example");
      const admin = await startChange(org.users.admin, "admin.new@elsewhere.example");
      // Assess
      expect(refused.body).toEqual({ result: "error", msg: "Email address changes are disabled in this organization.", code: "BAD_REQUEST" });
      expect(admin.body).toEqual({ result: "success", msg: "" });
    } finally {
      expect((await org.api(org.users.owner, "PATCH", "/realm", { email_changes_disabled: false })).status).toBe(200);
    }
  });

  it("voids a link once a newer change is asked for, and refuses unknown keys", async () => {
    // Prepare
    const user = await org.createUser("lea");
    const first = await requestedKey(user, "lea.one@elsewhere.example");
    const second = await requestedKey(user, "lea.two@elsewhere.example");
    // Act
    const stale = await confirm(first);
    const used = await confirm(second);
    // Assess
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual(linkError("CONFIRMATION_EXPIRED"));
    expect(used.body).toEqual({ result: "success", msg: "", email: "lea.two@elsewhere.example" });
    expect((await confirm(generateConfirmationKey())).body).toEqual(linkError("CONFIRMATION_NOT_FOUND"));
  });

  it("refuses the link when someone took the address meanwhile", async () => {
    // Prepare
    const user = await org.createUser("max");
    const key = await requestedKey(user, "max.taken@test.example");
    await org.createUser("max.taken");
    // Act
    const res = await confirm(key);
    // Assess
    expect(res.body).toEqual({ result: "error", msg: "Already has an account.", code: "BAD_REQUEST" });
    expect((await org.api(user, "GET", "/users/me")).body.delivery_email).toBe(user.email);
  });

  it(`expires the link ${EMAIL_CHANGE_LINK_VALIDITY_SECONDS} seconds after it was mailed`, async () => {
    // Prepare
    const user = await org.createUser("ned");
    const key = await requestedKey(user, "ned.new@elsewhere.example");
    const mailedAt = Date.now();
    // Act
    org.stack.deps.clock = { now: () => mailedAt + (EMAIL_CHANGE_LINK_VALIDITY_SECONDS + 60) * 1000 };
    const res = await confirm(key);
    // Assess
    expect(res.body).toEqual(linkError("CONFIRMATION_EXPIRED"));
  });

  it("allows 2 change requests per hour, then 429 RATE_LIMIT_HIT", async () => {
    // Prepare
    const user = await org.createUser("pia");
    // Act
    const statuses = [
      (await startChange(user, "pia.1@elsewhere.example")).status,
      (await startChange(user, "pia.2@elsewhere.example")).status,
    ];
    const third = await startChange(user, "pia.3@elsewhere.example");
    // Assess
    expect(statuses).toEqual([200, 200]);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": expect.any(Number) });
    expect(third.headers.get("retry-after")).toBe(String(Math.ceil(third.body["retry-after"])));
  });
});
