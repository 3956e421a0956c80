import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { gone, linkNamed, newContext, searchBox, signInForm, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** Calls `GET /json/users/me` from the page as the app would (session cookie and CSRF header); resolves with the status. */
async function usersMeStatus(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const token = /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? "";
    const res = await fetch("/json/users/me", { headers: { "X-CSRFToken": decodeURIComponent(token) }, credentials: "same-origin" });
    return res.status;
  });
}

/** Clicks "Log out", opening the personal menu that holds it first. */
async function clickLogOut(page: Page): Promise<void> {
  const logOut = page.getByRole("button", { name: "Log out", exact: true });
  if (!(await logOut.isVisible())) await page.getByLabel("Personal menu", { exact: true }).click();
  await logOut.click();
}

describe("signing in", () => {
  it("the site root shows the sign-in form; the right password opens the app with the person's streams", async () => {
    const person = await browsers.newPerson(org, org.users.member);
    // The seeded member is subscribed to the organization's default stream.
    const subs = await org.api(org.users.member, "GET", "/users/me/subscriptions");
    const names = (subs.body.subscriptions as { name: string }[]).map((s) => s.name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) await visible(linkNamed(person.page, name));
    expect(await usersMeStatus(person.page)).toBe(200);
  });

  it("a wrong password shows the server's message and leaves the form in place", async () => {
    // Prepare: the server's own wording for this failure.
    const res = await fetch(`${org.url}/accounts/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: org.users.member2.email, password: "not-the-password" }),
    });
    const body = (await res.json()) as { result: string; msg: string };
    expect(body.result).toBe("error");
    expect(body.msg.length).toBeGreaterThan(0);

    // Act
    const context = await newContext(browsers.browser(), org.url);
    try {
      const page = await context.newPage();
      await page.goto("/");
      const form = signInForm(page);
      await form.email.fill(org.users.member2.email);
      await form.password.fill("still-not-the-password");
      await form.logIn.click();

      // Assess
      await visible(page.getByRole("alert").filter({ hasText: body.msg }));
      await visible(form.logIn);
      expect(await searchBox(page).count()).toBe(0);
      expect(await usersMeStatus(page)).toBe(401);
    } finally {
      await context.close();
    }
  });

  it("signing out returns to the sign-in page and the session's /json calls then get 401", async () => {
    const person = await browsers.newPerson(org, org.users.moderator);
    expect(await usersMeStatus(person.page)).toBe(200);
    const cookies = await person.context.cookies();
    expect(cookies.map((c) => c.name)).toContain("sessionid");

    await clickLogOut(person.page);

    const form = signInForm(person.page);
    await visible(form.email);
    await visible(form.logIn);
    await gone(searchBox(person.page));
    expect(await usersMeStatus(person.page)).toBe(401);
    // The session is over on the server too, not only forgotten by the browser: its old cookies get 401.
    await person.context.addCookies(cookies);
    expect(await usersMeStatus(person.page)).toBe(401);
  });
});
