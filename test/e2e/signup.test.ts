/**
 * Sign-up through HTTP as the web app does it (the contract's
 * `GET /json/signup/{key}`, `POST /json/signup`, `POST /json/signup/request`):
 * follow a mailed link's key, sign up, and check the new account, its
 * streams and role, the referrer's direct message, and that the link is spent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../shared/deps.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { sendRequest, type TestUser } from "../support/api-client.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { jsonCall, type WebSession } from "../support/web-session.js";

const org = useTestOrg();

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

const keyOf = (text: string) => /\/(?:accounts\/do_confirm|join)\/([a-z2-7]{24})/.exec(text)![1]!;
const linkInfo = (key: string) => jsonCall(org.url, null, "GET", `/signup/${key}`);
const refused = (code: string) => ({ result: "error", code, msg: expect.any(String) });

/** `POST /json/signup` as the sign-up form sends it; the session its cookies name. */
async function signup(params: Record<string, string>): Promise<{ status: number; body: any; session?: WebSession }> {
  const res = await sendRequest(`${org.url}/json/signup`, "POST", params, {});
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1).split(";")[0];
  const sessionId = value("sessionid");
  const csrfToken = value("csrftoken");
  return { status: res.status, body: res.body, ...(sessionId && csrfToken ? { session: { sessionId, csrfToken } } : {}) };
}

async function streamId(creator: TestUser, name: string, inviteOnly = false): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], ...(inviteOnly ? { invite_only: true } : {}) });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

/** The names of the streams a signed-in session's user is subscribed to. */
async function subscribedNames(session: WebSession): Promise<string[]> {
  const res = await jsonCall(org.url, session, "GET", "/users/me/subscriptions");
  return (res.body.subscriptions as { name: string }[]).map((s) => s.name).sort();
}

describe("sign-up with an email invitation", () => {
  it("creates the invited account with its role and streams, signs it in, tells the referrer, and spends the link", async () => {
    const { admin, member } = org.users;
    const priv = await streamId(admin, "signup-private", true);
    const pub = await streamId(admin, "signup-public");
    // A second, older invitation of the same address disappears with the sign-up.
    expect((await org.api(member, "POST", "/invites", { invitee_emails: "joiner@test.example", stream_ids: [] })).status).toBe(200);
    const dms = new EventQueueClient({ baseUrl: org.url, email: admin.email, apiKey: admin.apiKey, onEvent: validateEvent });
    await dms.register({ event_types: ["message"] });
    const res = await org.api(admin, "POST", "/invites", {
      invitee_emails: "joiner@test.example",
      stream_ids: [priv, pub],
      invite_as: 300,
      include_realm_default_subscriptions: false,
    });
    expect(res.status).toBe(200);
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.to === "joiner@test.example" && m.text.includes(admin.fullName));
    const key = keyOf(mail.text);

    expect((await linkInfo(key)).body).toEqual({
      result: "success",
      msg: "",
      kind: "invitation",
      realm_name: org.realm.name,
      realm_url: expect.stringMatching(/^https?:\/\//),
      email: "joiner@test.example",
      invited_as: 300,
      streams: ["signup-private", "signup-public"],
    });
    expect((await signup({ key, full_name: "Jo Joiner", password: "short" })).body).toMatchObject({ msg: "The password is too weak." });

    const done = await signup({ key, full_name: "  Jo Joiner ", password: "a good long password" });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ result: "success", msg: "", user_id: expect.any(Number), email: "joiner@test.example" });
    const me = await jsonCall(org.url, done.session!, "GET", "/users/me");
    expect(me.body).toMatchObject({ user_id: done.body.user_id, full_name: "Jo Joiner", role: 300, email: "joiner@test.example" });
    expect(await subscribedNames(done.session!)).toEqual(["signup-private", "signup-public"]);

    const dm = await dms.waitFor((e) => e.type === "message" && e.message.sender_email === "notification-bot@zulip.com");
    expect(dm.message.content).toContain("Jo Joiner");
    expect(dm.message.content).toContain("accepted your invitation");
    await dms.delete();

    expect((await linkInfo(key)).body).toEqual(refused("CONFIRMATION_USED"));
    expect((await signup({ key, full_name: "Again", password: "a good long password" })).body).toEqual(refused("CONFIRMATION_USED"));
    const open = (await org.api(admin, "GET", "/invites")).body.invites as { email?: string }[];
    expect(open.some((i) => i.email === "joiner@test.example")).toBe(false);
  });

  it("refuses unknown and expired links, and a second account for a taken address", async () => {
    const { admin, member2 } = org.users;
    expect((await linkInfo("abcdefghijklmnopqrstuvwx")).body).toEqual(refused("CONFIRMATION_NOT_FOUND"));
    expect((await linkInfo("not a key")).body).toEqual(refused("CONFIRMATION_NOT_FOUND"));
    expect((await org.api(admin, "POST", "/invites", { invitee_emails: "late@test.example", stream_ids: [], invite_expires_in_minutes: 1 })).status).toBe(200);
    const key = keyOf((await waitForEmail(org.stack.mailDir, (m) => m.to === "late@test.example")).text);
    expect((await linkInfo(key)).body).toMatchObject({ result: "success", kind: "invitation" });
    const now = Date.now();
    org.stack.deps.clock = { now: () => now + 2 * 60_000 };
    expect((await linkInfo(key)).body).toEqual(refused("CONFIRMATION_EXPIRED"));
    expect((await signup({ key, full_name: "Late", password: "a good long password" })).body).toEqual(refused("CONFIRMATION_EXPIRED"));
    org.stack.deps.clock = systemClock;

    const link = (await org.api(admin, "POST", "/invites/multiuse", {})).body.invite_link as string;
    const taken = await signup({ key: keyOf(link), full_name: "Twin", password: "a good long password", email: member2.email });
    expect(taken.body).toMatchObject({ result: "error", msg: `${member2.email} already has an account` });
  });
});

describe("sign-up with a reusable link", () => {
  it("signs up two people with their own addresses, then fails once the link is revoked", async () => {
    const { admin } = org.users;
    const made = await org.api(admin, "POST", "/invites/multiuse", { invite_as: 600, include_realm_default_subscriptions: true });
    const key = keyOf(made.body.invite_link);
    expect((await linkInfo(key)).body).toMatchObject({ kind: "multiuse_invite", email: null, invited_as: 600, streams: ["general"] });

    expect((await signup({ key, full_name: "No Address", password: "a good long password" })).body).toMatchObject({
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'email' argument",
    });
    for (const who of ["first", "second"]) {
      const res = await signup({ key, full_name: `Guest ${who}`, password: "a good long password", email: `${who}-guest@test.example` });
      expect(res.body).toMatchObject({ result: "success", email: `${who}-guest@test.example` });
      expect((await jsonCall(org.url, res.session!, "GET", "/users/me")).body.role).toBe(600);
      expect(await subscribedNames(res.session!)).toEqual(["general"]);
    }
    const id = ((await org.api(admin, "GET", "/invites")).body.invites as any[]).find((i) => i.link_url === made.body.invite_link).id;
    expect((await org.api(admin, "DELETE", `/invites/multiuse/${id}`)).status).toBe(200);
    expect((await linkInfo(key)).body).toEqual(refused("CONFIRMATION_NOT_FOUND"));
    const third = await signup({ key, full_name: "Third", password: "a good long password", email: "third-guest@test.example" });
    expect(third.body).toEqual(refused("CONFIRMATION_NOT_FOUND"));
  });
});

describe("POST /json/signup/request", () => {
  it("mails a registration link in an open organization, which signs up that address with the default streams", async () => {
    const request = (email: string) => jsonCall(org.url, null, "POST", "/signup/request", { email });
    expect((await request("walk-in@test.example")).body).toMatchObject({
      result: "error",
      msg: "Please request an invite for walk-in@test.example from the organization administrator.",
    });
    await withRealmSettings(org, { invite_required: false }, async () => {
      expect((await request("nope")).body).toMatchObject({ msg: "Enter a valid email address." });
      expect((await request("x@mailinator.com")).body).toMatchObject({ msg: "Please use your real email address." });
      expect((await request(org.users.member.email)).body).toMatchObject({ msg: `${org.users.member.email} already has an account` });
      await withRealmSettings(org, { emails_restricted_to_domains: true }, async () => {
        expect((await request("walk-in@test.example")).body).toMatchObject({
          msg: "Your email address, walk-in@test.example, is not in one of the domains that are allowed to register for accounts in this organization.",
        });
      });
      expect((await request("walk-in@test.example")).body).toEqual({ result: "success", msg: "" });
    });
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "user_registration" && m.to === "walk-in@test.example");
    expect(mail.text).toContain(org.realm.name);
    const key = keyOf(mail.text);
    expect((await linkInfo(key)).body).toMatchObject({ kind: "user_registration", email: "walk-in@test.example", invited_as: 400 });
    // The address is the link's: an `email` sent along is ignored.
    const res = await signup({ key, full_name: "Walk In", password: "a good long password", email: "other@test.example" });
    expect(res.body).toMatchObject({ result: "success", email: "walk-in@test.example" });
    expect(await subscribedNames(res.session!)).toEqual(["general"]);
    expect((await linkInfo(key)).body).toEqual(refused("CONFIRMATION_USED"));
  });
});
