import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import { newContext, passwordOf, saveScreenshot, searchBox, seriousViolations, signInForm, unique, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The page's main heading, by its text. */
const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

/** Opens the site root in a fresh context (nobody signed in). */
async function freshPage(): Promise<Page> {
  const context = await newContext(browsers.browser(), org.url);
  return context.newPage();
}

/** Signs in through the form; resolves once the app or the form's refusal shows. */
async function tryLogIn(page: Page, email: string, password: string): Promise<"app" | string> {
  const form = signInForm(page);
  await form.email.fill(email);
  await form.password.fill(password);
  await form.logIn.click();
  const refusal = page.getByRole("alert");
  await Promise.race([searchBox(page).waitFor({ state: "attached" }), refusal.waitFor({ state: "visible" })]);
  return (await refusal.isVisible()) ? ((await refusal.textContent()) ?? "") : "app";
}

describe("password reset", () => {
  it("from the sign-in page by keyboard, through the mailed link, to a sign-in with the new password (the old one refused)", async () => {
    // Prepare
    const user = await org.createUser(unique("forgetful"));
    const page = await freshPage();
    try {
      await page.goto("/");
      const form = signInForm(page);
      await visible(form.email);

      // Act: the "Forgot your password?" link reached with Tab from the form's button.
      await form.logIn.focus();
      await page.keyboard.press("Tab");
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Forgot your password?");
      await page.keyboard.press("Enter");
      await visible(heading(page, "Reset your password"));
      expect(new URL(page.url()).pathname).toBe("/accounts/password/reset/");
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "password-reset-request");
      // The email field takes focus; Enter sends.
      await page.keyboard.type(user.email);
      await page.keyboard.press("Enter");
      await visible(heading(page, "Check your email"));
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "password-reset-sent");

      // The mail's link opens the page that takes the new password.
      const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "password_reset" && m.to.includes(user.email));
      const link = mail.links.find((l) => l.includes("/accounts/password/reset/"));
      expect(link).toMatch(new RegExp(`^${org.url}/accounts/password/reset/[a-z2-7]{24}/$`));
      await page.goto(link!);
      await visible(heading(page, "Choose a new password"));
      await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe(user.email);
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "password-reset-choose");
      await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
      await page.getByLabel("Confirm new password", { exact: true }).fill("a brand new passphrase");
      await page.getByRole("button", { name: "Change password", exact: true }).click();
      await visible(heading(page, "Password changed"));
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "password-reset-done");

      // Assess: the old password is refused, the new one opens the app.
      await page.getByRole("link", { name: "Log in", exact: true }).click();
      await visible(signInForm(page).email);
      expect(await tryLogIn(page, user.email, passwordOf(user.email))).not.toBe("app");
      expect(await tryLogIn(page, user.email, "a brand new passphrase")).toBe("app");

      // The link worked once: opened again, it says it was used, with the way to ask for another.
      const again = await freshPage();
      await again.goto(link!);
      await visible(heading(again, "This link has already been used"));
      await visible(again.getByRole("link", { name: "Request a new reset link", exact: true }));
      expect(await seriousViolations(again)).toEqual([]);
      await saveScreenshot(again, "password-reset-used-link");
      await again.context().close();
    } finally {
      await page.context().close();
    }
  });

  it("a link no one was sent says it is not valid, readable in both themes", async () => {
    const page = await freshPage();
    try {
      await page.goto("/accounts/password/reset/abcdefghijklmnopqrstuvwx/");
      await visible(heading(page, "This link is not valid"));
      await visible(page.getByRole("link", { name: "Go to the login page", exact: true }));
      expect(await seriousViolations(page)).toEqual([]);
      // The pages follow the system's scheme (no one is signed in to have a setting).
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, "password-reset-invalid-link-dark");
    } finally {
      await page.context().close();
    }
  });

  it("mistyped new passwords are refused in the form, before anything is sent", async () => {
    const user = await org.createUser(unique("typo"));
    const page = await freshPage();
    try {
      await page.goto("/accounts/password/reset/");
      await page.getByLabel("Email", { exact: true }).fill(user.email);
      await page.getByRole("button", { name: "Send reset link", exact: true }).click();
      const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "password_reset" && m.to.includes(user.email));
      await page.goto(mail.links.find((l) => l.includes("/accounts/password/reset/"))!);
      await page.getByLabel("New password", { exact: true }).fill("first passphrase");
      await page.getByLabel("Confirm new password", { exact: true }).fill("second passphrase");
      await page.getByRole("button", { name: "Change password", exact: true }).click();
      await visible(page.getByRole("alert").filter({ hasText: "The passwords do not match." }));
      // The old password still works: nothing was changed.
      await page.goto("/");
      expect(await tryLogIn(page, user.email, passwordOf(user.email))).toBe("app");
    } finally {
      await page.context().close();
    }
  });
});
