import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import {
  createStream,
  linkNamed,
  newContext,
  saveScreenshot,
  searchBox,
  seriousViolations,
  signInForm,
  unique,
  useBrowser,
  visible,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The page's main heading, by its text. */
const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

/** A page in a fresh browser context (nobody signed in), closed with the test. */
async function freshPage(): Promise<Page> {
  const context = await newContext(browsers.browser(), org.url);
  return context.newPage();
}

/** Fills the sign-up form (the email only on a reusable link's page) and sends it; resolves once the app shows. */
async function signUp(page: Page, fields: { email?: string; fullName: string; password: string }): Promise<void> {
  if (fields.email !== undefined) await page.getByLabel("Email", { exact: true }).fill(fields.email);
  await page.getByLabel("Full name", { exact: true }).fill(fields.fullName);
  await page.getByLabel("Password", { exact: true }).fill(fields.password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await searchBox(page).waitFor({ state: "attached" });
  expect(new URL(page.url()).pathname).toBe("/");
}

/** The active user with this address, as an administrator's `GET /users` lists them. */
async function userByEmail(email: string): Promise<{ user_id: number; role: number; full_name: string } | undefined> {
  const res = await org.api(org.users.admin, "GET", "/users");
  const users = res.body.members as { user_id: number; delivery_email?: string; email: string; role: number; full_name: string; is_active: boolean }[];
  return users.find((u) => (u.delivery_email ?? u.email) === email && u.is_active);
}

/** Whether the user is subscribed to the stream, as the server says (`GET /users/{user_id}/subscriptions/{stream_id}`). */
async function isSubscribed(userId: number, streamId: number): Promise<boolean> {
  const res = await org.api(org.users.admin, "GET", `/users/${userId}/subscriptions/${streamId}`);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.is_subscribed as boolean;
}

describe("joining by invitation", () => {
  it("an emailed invitation: the mail's link, the sign-up form by keyboard, the app with the invited streams", async () => {
    // Prepare: an administrator invites by email to a new stream.
    const stream = unique("welcome");
    const streamId = await createStream(org, org.users.admin, stream, [org.users.admin]);
    const email = `${unique("invitee")}@test.example`;
    const invite = await org.api(org.users.admin, "POST", "/invites", {
      invitee_emails: email,
      stream_ids: JSON.stringify([streamId]),
      invite_expires_in_minutes: 60,
      invite_as: 400,
      include_realm_default_subscriptions: false,
    });
    expect(invite.body).toMatchObject({ result: "success" });
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "invitation" && m.to.includes(email));
    const link = mail.links.find((l) => l.includes("/accounts/do_confirm/"));
    expect(link).toMatch(new RegExp(`^${org.url}/accounts/do_confirm/[a-z2-7]{24}$`));

    const page = await freshPage();
    try {
      // Act: the invitee opens the link and signs up with the keyboard alone.
      await page.goto(link!);
      await visible(heading(page, "Create your account"));
      await visible(page.getByText(`#${stream}`, { exact: true }));
      await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe(email);
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "join-invitation");
      // "Full name" takes focus; Tab goes on to the password, Enter sends.
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("full_name");
      await page.keyboard.type("Ines Invitee");
      await page.keyboard.press("Tab");
      await page.keyboard.type("a good long passphrase");
      await page.keyboard.press("Enter");

      // Assess: the app, with the invited stream in the sidebar, and the server agrees.
      await searchBox(page).waitFor({ state: "attached" });
      await visible(linkNamed(page, stream));
      expect(new URL(page.url()).pathname).toBe("/");
      const user = await userByEmail(email);
      expect(user).toMatchObject({ full_name: "Ines Invitee", role: 400 });
      expect(await isSubscribed(user!.user_id, streamId)).toBe(true);

      // The link worked once: opened again, it says so.
      const again = await freshPage();
      await again.goto(link!);
      await visible(heading(again, "This link has already been used"));
      expect(await seriousViolations(again)).toEqual([]);
      await saveScreenshot(again, "join-used-link");
      await again.context().close();
    } finally {
      await page.context().close();
    }
  });

  it("a reusable link: two people join with it, and once revoked it says it is not valid", async () => {
    // Prepare
    const stream = unique("shared");
    const streamId = await createStream(org, org.users.admin, stream, [org.users.admin]);
    const created = await org.api(org.users.admin, "POST", "/invites/multiuse", {
      stream_ids: JSON.stringify([streamId]),
      invite_expires_in_minutes: 60,
      invite_as: 400,
      include_realm_default_subscriptions: false,
    });
    expect(created.body).toMatchObject({ result: "success" });
    const link = created.body.invite_link as string;
    expect(link).toMatch(new RegExp(`^${org.url}/join/[a-z2-7]{24}/$`));

    // Act: two people, each in a context of their own.
    const joined: string[] = [];
    for (const name of ["first", "second"]) {
      const email = `${unique(name)}@test.example`;
      const page = await freshPage();
      try {
        await page.goto(link);
        await visible(heading(page, "Create your account"));
        if (name === "first") {
          expect(await seriousViolations(page)).toEqual([]);
          await saveScreenshot(page, "join-reusable-link");
        }
        await signUp(page, { email, fullName: `Joiner ${name}`, password: "a good long passphrase" });
        await visible(linkNamed(page, stream));
      } finally {
        await page.context().close();
      }
      joined.push(email);
    }
    for (const email of joined) {
      const user = await userByEmail(email);
      expect(user).toBeDefined();
      expect(await isSubscribed(user!.user_id, streamId)).toBe(true);
    }

    // Revoked, the link no longer works.
    const invites = await org.api(org.users.admin, "GET", "/invites");
    const mine = (invites.body.invites as { id: number; is_multiuse: boolean; link_url?: string }[]).find((i) => i.is_multiuse && i.link_url === link);
    expect(mine).toBeDefined();
    const revoke = await org.api(org.users.admin, "DELETE", `/invites/multiuse/${mine!.id}`);
    expect(revoke.body).toMatchObject({ result: "success" });
    const page = await freshPage();
    try {
      await page.goto(link);
      await visible(heading(page, "This link is not valid"));
      await visible(page.getByRole("link", { name: "Go to the login page", exact: true }));
      expect(await page.getByRole("button", { name: "Sign up" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "join-revoked-link");
    } finally {
      await page.context().close();
    }
  });

  it("where no invitation is needed: 'Sign up' on the sign-in page, the address confirmed by mail, then the form", async () => {
    // Prepare
    const patch = await org.api(org.users.owner, "PATCH", "/realm", { invite_required: false });
    expect(patch.body).toMatchObject({ result: "success" });
    const email = `${unique("walkin")}@test.example`;
    const page = await freshPage();
    try {
      // Act
      await page.goto("/");
      await visible(signInForm(page).email);
      await visible(page.getByRole("link", { name: "Sign up", exact: true }));
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("link", { name: "Sign up", exact: true }).click();
      await visible(heading(page, `Sign up for ${org.realm.name}`));
      expect(new URL(page.url()).pathname).toBe("/register/");
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "register");
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await visible(heading(page, "Check your email"));
      expect(await seriousViolations(page)).toEqual([]);
      const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "user_registration" && m.to.includes(email));
      await page.goto(mail.links.find((l) => l.includes("/accounts/do_confirm/"))!);
      await visible(heading(page, "Create your account"));
      await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe(email);
      await signUp(page, { fullName: "Walk In", password: "a good long passphrase" });

      // Assess
      expect(await userByEmail(email)).toMatchObject({ full_name: "Walk In", role: 400 });
    } finally {
      await page.context().close();
      await org.api(org.users.owner, "PATCH", "/realm", { invite_required: true });
    }
  });
});
