import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import { createStream, gone, saveScreenshot, seriousViolations, unique, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

const stream = unique("hooks");

beforeAll(async () => {
  await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member, org.users.member2]);
});

/** Opens the personal menu and its "Personal settings" link; resolves when the overlay shows. */
async function openPersonalSettings(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Personal menu" }).click();
  await page.getByRole("link", { name: "Personal settings", exact: true }).click();
  await visible(page.getByRole("region", { name: "Personal settings" }));
}

/** Opens a section from the overlay's navigation; resolves when its heading shows. */
async function openSection(page: Page, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Personal settings sections" }).getByRole("link", { name: title, exact: true }).click();
  await visible(page.locator(".settings-content h2", { hasText: title }));
}

/**
 * Tabs from the section's heading and records which of the section's
 * enabled controls got the focus; resolves with those never reached.
 */
async function controlsTabMisses(page: Page): Promise<string[]> {
  // One focus listener records what Tab reaches, so each key press is one round trip.
  const count = await page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>(".settings-content :is(a[href], button, input, select, textarea, [tabindex='0'])")].filter(
      (el) => !(el as HTMLButtonElement).disabled,
    );
    controls.forEach((el, i) => (el.dataset.kbd = String(i)));
    const reached = new Set<string>();
    (window as unknown as { kbdReached: Set<string> }).kbdReached = reached;
    document.addEventListener("focusin", (e) => {
      const at = (e.target as HTMLElement).dataset.kbd;
      if (at !== undefined) reached.add(at);
    });
    document.querySelector<HTMLElement>(".settings-content h2")!.focus();
    return controls.length;
  });
  for (let i = 0; i < count + 5; i++) await page.keyboard.press("Tab");
  return page.evaluate(() => {
    const reached = (window as unknown as { kbdReached: Set<string> }).kbdReached;
    return [...document.querySelectorAll<HTMLElement>("[data-kbd]")]
      .filter((el) => !reached.has(el.dataset.kbd!))
      .map((el) => el.getAttribute("aria-label") ?? el.textContent ?? el.id);
  });
}

const SECTIONS: [string, string][] = [
  ["Profile", "profile"],
  ["Account & privacy", "account-and-privacy"],
  ["Preferences", "preferences"],
  ["Notifications", "notifications"],
  ["Your bots", "bots"],
  ["Alert words", "alert-words"],
  ["Muted users", "muted-users"],
];

describe("personal settings", () => {
  it("opens from the personal menu's \"Personal settings\" link at its first section", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await openPersonalSettings(page);
    await visible(page.locator(".settings-content h2", { hasText: "Profile" }));
    expect(await page.evaluate(() => location.hash)).toBe("#settings/profile");
  });

  it.each(SECTIONS)("%s: no serious axe violation, and Tab reaches each of its controls", async (title, shot) => {
    // Prepare: a muted user, so the muted-users table shows.
    await org.api(org.users.member, "POST", `/users/me/muted_users/${org.users.guest.id}`);
    const { page } = await browsers.newPerson(org, org.users.member);
    await openPersonalSettings(page);
    // Act
    await openSection(page, title);
    // Assess
    expect(await seriousViolations(page)).toEqual([]);
    expect(await controlsTabMisses(page)).toEqual([]);
    if (title === "Muted users") await visible(page.getByRole("button", { name: `Unmute ${org.users.guest.fullName}` }));
    await saveScreenshot(page, `settings-${shot}`);
  });

  it("a new full name reaches another person live", async () => {
    // Prepare
    const watcher = await browsers.newPerson(org, org.users.member2);
    const { page } = await browsers.newPerson(org, org.users.moderator);
    const name = unique("Moderna ");
    await openPersonalSettings(page);
    // Act
    await page.getByLabel("Full name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Save name" }).click();
    // Assess
    await visible(watcher.page.getByText(name, { exact: true }));
    const user = await org.api(org.users.owner, "GET", `/users/${org.users.moderator.id}`);
    expect(user.body.user.full_name).toBe(name);
  });

  it("changing the email mails the new address; once its link is followed the new address shows live", async () => {
    // Prepare
    const user = await org.createUser(unique("emil"));
    const newEmail = `${unique("emil-new")}@elsewhere.example`;
    const { page } = await browsers.newPerson(org, user);
    await openPersonalSettings(page);
    await openSection(page, "Account & privacy");
    // Act
    await page.getByRole("button", { name: "Change", exact: true }).click();
    await page.getByLabel("New email", { exact: true }).fill(newEmail);
    await page.getByRole("button", { name: "Send confirmation" }).click();
    // Assess
    await visible(page.getByRole("status").filter({ hasText: `Check your email (${newEmail}) to confirm the new address.` }));
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "email_change" && m.to === newEmail);
    const link = mail.links.find((l) => l.includes("/accounts/confirm_new_email/"))!;
    const key = /\/accounts\/confirm_new_email\/([a-z2-7]{24})\/$/.exec(link)![1];
    const confirmed = await fetch(`${org.url}/json/accounts/confirm_new_email/${key}`, { method: "POST" });
    expect(confirmed.status).toBe(200);
    await visible(page.locator(".settings-content").getByText(newEmail, { exact: true }));
  });

  it("refuses a wrong old password with the server's message", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await openPersonalSettings(page);
    await openSection(page, "Account & privacy");
    await page.getByLabel("Old password", { exact: true }).fill("not-my-password");
    await page.getByLabel("New password", { exact: true }).fill("a much longer passphrase 42");
    await page.getByRole("button", { name: "Change password" }).click();
    await visible(page.getByRole("alert").filter({ hasText: "Wrong password!" }));
  });

  it("shows the API key only after the password, and generates a new one", async () => {
    // Prepare
    const admin = org.users.admin;
    const { page } = await browsers.newPerson(org, admin);
    await openPersonalSettings(page);
    await openSection(page, "Account & privacy");
    // Act
    await page.getByRole("button", { name: "Manage your API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage your API key" });
    await visible(dialog);
    // Assess: no key before the password; a wrong one is refused with the server's message.
    expect(await page.getByText(admin.apiKey).count()).toBe(0);
    await dialog.getByLabel("Your password").fill("wrong");
    await dialog.getByRole("button", { name: "Get API key" }).click();
    await visible(dialog.getByRole("alert").filter({ hasText: "Password is incorrect." }));
    expect(await page.getByText(admin.apiKey).count()).toBe(0);
    await dialog.getByLabel("Your password").fill(`${admin.email}-password`);
    await dialog.getByRole("button", { name: "Get API key" }).click();
    await visible(dialog.getByText(admin.apiKey, { exact: true }));
    await saveScreenshot(page, "settings-api-key");
    // A new key replaces the shown one and works at once.
    await dialog.getByRole("button", { name: "Generate new API key" }).click();
    await gone(dialog.getByText(admin.apiKey, { exact: true }));
    const fresh = (await dialog.locator("code.api-key").textContent())!.trim();
    expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await org.api({ ...admin, apiKey: fresh }, "GET", "/users/me")).status).toBe(200);
    expect((await org.api(admin, "GET", "/users/me")).status).toBe(401);
  });

  it("the dark theme applies at once and stays after a reload", async () => {
    const { page } = await browsers.newPerson(org, org.users.member2);
    await openPersonalSettings(page);
    await openSection(page, "Preferences");
    await page.getByLabel("Theme", { exact: true }).selectOption({ label: "Dark" });
    await page.waitForFunction(() => document.documentElement.dataset.colorScheme === "dark");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(26, 28, 32)");
    await saveScreenshot(page, "settings-preferences-dark");
    // Assess: the setting is stored, and the app draws dark after a reload.
    const settings = await org.api(org.users.member2, "POST", "/register", { fetch_event_types: ["user_settings"] });
    expect(settings.body.user_settings.color_scheme).toBe(2);
    await page.reload();
    await visible(page.getByRole("region", { name: "Personal settings" }));
    await page.waitForFunction(() => document.documentElement.dataset.colorScheme === "dark");
    expect(await background()).toBe("rgb(26, 28, 32)");
    // Light forces light whatever the system prefers.
    await openSection(page, "Preferences");
    await page.getByLabel("Theme", { exact: true }).selectOption({ label: "Light" });
    await page.waitForFunction(() => document.documentElement.dataset.colorScheme === "light");
    expect(await background()).toBe("rgb(255, 255, 255)");
  });

  it("adds and removes an alert word", async () => {
    const member = org.users.member;
    const { page } = await browsers.newPerson(org, member);
    const word = unique("zebra");
    await openPersonalSettings(page);
    await openSection(page, "Alert words");
    await page.getByLabel("New alert word").fill(word);
    await page.getByRole("button", { name: "Add alert word" }).click();
    const item = page.getByRole("list", { name: "Alert words" }).getByText(word, { exact: true });
    await visible(item);
    expect((await org.api(member, "GET", "/users/me/alert_words")).body.alert_words).toContain(word);
    await page.getByRole("button", { name: `Delete alert word ${word}` }).click();
    await gone(item);
    expect((await org.api(member, "GET", "/users/me/alert_words")).body.alert_words).not.toContain(word);
  });

  it("creates an incoming-webhook bot whose integration URL posts to the channel", async () => {
    // Prepare
    const watcher = await browsers.newPerson(org, org.users.member2);
    await watcher.page.getByRole("link", { name: stream }).first().click();
    const { page } = await browsers.newPerson(org, org.users.member);
    const botName = unique("Hook ");
    const username = unique("hook");
    await openPersonalSettings(page);
    await openSection(page, "Your bots");
    // Act: create the bot.
    const form = page.getByRole("form", { name: "Add a new bot" });
    await form.getByLabel("Bot type").selectOption({ label: "Incoming webhook" });
    await form.getByLabel("Bot name").fill(botName);
    await form.getByLabel("Bot username").fill(username);
    await form.getByRole("button", { name: "Create bot" }).click();
    const card = page.getByRole("article", { name: `Bot ${botName}` });
    await visible(card);
    // Act: build the JSON integration's URL for the channel and a topic.
    await card.getByLabel("Integration").selectOption({ label: "JSON" });
    await card.getByLabel("Channel").selectOption({ label: stream });
    await card.getByLabel("Topic (optional)").fill("deploys");
    const url = await card.getByLabel("Webhook URL").inputValue();
    await card.getByRole("button", { name: "Copy URL" }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, "settings-bots-webhook");
    // Assess: the URL is the integration's, with the bot's key; a post to it arrives live.
    const bots = await org.api(org.users.member, "GET", "/bots");
    const bot = (bots.body.bots as { username: string; api_key: string }[]).find((b) => b.username.startsWith(`${username}-bot@`))!;
    expect(url).toBe(`${org.url}/api/v1/external/json?api_key=${bot.api_key}&stream=${encodeURIComponent(stream)}&topic=deploys`);
    const marker = unique("shipped");
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: marker }) });
    expect(res.status).toBe(200);
    await visible(watcher.page.getByText(marker));
  });
});
