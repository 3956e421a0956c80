/**
 * Organization settings (`#organization/<section>`) in the browser: an
 * administrator or owner changes the organization as Zulip's settings pages
 * do, other people see the changes live, the server's refusals show where the
 * person acted, and a member sees the pages read-only.
 */
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, gone, goToHash, saveScreenshot, seriousViolations, unique, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** A 1×1 PNG, the smallest image the emoji upload takes. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** The overlay's landmark. */
function overlay(page: Page): Locator {
  return page.getByRole("region", { name: "Organization settings" });
}

/** Opens organization settings from the personal menu, as a person does. */
async function openFromMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Personal menu" }).click();
  await page.getByRole("link", { name: "Organization settings", exact: true }).click();
  await visible(overlay(page).getByRole("heading", { name: "Organization profile", level: 2 }));
}

/** Opens a section by its hash and waits for its heading. */
async function openSection(page: Page, id: string, heading: string): Promise<void> {
  await goToHash(page, `#organization/${id}`);
  await visible(overlay(page).getByRole("heading", { name: heading, level: 2 }));
}

/** Presses Shift+Tab until `target` has the focus (at most `max` times); fails when it never does. */
async function tabBackTo(page: Page, target: Locator, max = 80): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
    await page.keyboard.press("Shift+Tab");
  }
  throw new Error("not reachable with the keyboard");
}

/** The register answer's fields, as a new client would get them. */
async function register(user = org.users.owner, types = ["realm"]): Promise<Record<string, unknown>> {
  const r = await org.api(user, "POST", "/register", { fetch_event_types: types });
  expect(r.body).toMatchObject({ result: "success" });
  return r.body;
}

const SECTIONS: [string, string, string][] = [
  ["organization-profile", "Organization profile", "org-profile"],
  ["organization-settings", "Organization settings", "org-settings"],
  ["organization-permissions", "Organization permissions", "org-permissions"],
  ["default-user-settings", "Default user settings", "org-default-user-settings"],
  ["emoji-settings", "Custom emoji", "org-emoji"],
  ["linkifier-settings", "Linkifiers", "org-linkifiers"],
  ["playground-settings", "Code playgrounds", "org-playgrounds"],
  ["profile-field-settings", "Custom profile fields", "org-profile-fields"],
  ["default-channels-list", "Default channels", "org-default-channels"],
  ["users", "Users", "org-users"],
  ["deactivated", "Deactivated users", "org-deactivated"],
  ["bots", "Bots", "org-bots"],
  ["user-groups", "User groups", "org-user-groups"],
  ["data-exports-admin", "Data exports", "org-data-exports"],
];

describe("organization settings", () => {
  it("an owner renames the organization from the personal menu; a member sees the new name live", async () => {
    const owner = await browsers.newPerson(org, org.users.owner);
    const member = await browsers.newPerson(org, org.users.member);
    await openFromMenu(owner.page);
    const name = unique("Acme ");
    const form = overlay(owner.page).getByRole("form", { name: "Name and description" });
    await form.getByLabel("Organization name").fill(name);
    await form.getByRole("button", { name: "Save changes" }).click();
    // The save bar stays (its button reads "Saving…") until the server has answered.
    await gone(form.getByRole("group", { name: /unsaved changes/ }));
    await visible(member.page.getByRole("banner").getByRole("link", { name }));
    expect((await register(org.users.member)).realm_name).toBe(name);
  });

  it("an administrator changes a permission: only it is saved, and a new register has it; Discard drops edits", async () => {
    const { page } = await browsers.newPerson(org, org.users.admin);
    await openFromMenu(page);
    await openSection(page, "organization-permissions", "Organization permissions");
    const form = overlay(page).getByRole("form", { name: "Other permissions" });
    await form.getByLabel("Who can add custom emoji").selectOption({ label: "Admins and moderators" });
    const patches: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PATCH" && r.url().endsWith("/json/realm")) patches.push(r.postData() ?? "");
    });
    await form.getByRole("button", { name: "Save changes" }).click();
    // The save bar stays (its button reads "Saving…") until the server has answered.
    await gone(form.getByRole("group", { name: /unsaved changes/ }));
    expect(patches).toEqual(["add_custom_emoji_policy=4"]);
    expect((await register()).realm_add_custom_emoji_policy).toBe(4);

    // Owner-only settings are disabled for an administrator, with the reason.
    const joining = overlay(page).getByRole("form", { name: "Joining the organization" });
    await expect.poll(() => joining.getByLabel(/Waiting period/).isDisabled()).toBe(true);
    await visible(joining.getByText("Only organization owners can change this"));

    const editing = overlay(page).getByRole("form", { name: "Message editing" });
    await editing.getByLabel("Time limit for editing messages").selectOption({ label: "1 hour" });
    await editing.getByRole("button", { name: "Discard" }).click();
    await gone(editing.getByRole("button", { name: "Save changes" }));
  });

  it("an owner changes a role, deactivates and reactivates a user; the last owner cannot be demoted", async () => {
    const { page } = await browsers.newPerson(org, org.users.owner);
    await openSection(page, "users", "Users");
    const mia = org.users.member2;
    await overlay(page).getByLabel(`Role of ${mia.fullName}`).selectOption({ label: "Moderator" });
    await expect.poll(async () => (await org.api(org.users.owner, "GET", `/users/${mia.id}`)).body.user).toMatchObject({ role: 300 });

    await overlay(page).getByLabel(`Role of ${org.users.owner.fullName}`).selectOption({ label: "Administrator" });
    await visible(overlay(page).getByRole("alert").filter({ hasText: /owner/i }));
    await saveScreenshot(page, "org-users");

    await overlay(page).getByRole("button", { name: `Deactivate ${mia.fullName}` }).click();
    const dialog = page.getByRole("dialog", { name: `Deactivate ${mia.fullName}?` });
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await gone(overlay(page).getByRole("cell", { name: mia.fullName, exact: true }));
    expect((await org.api(org.users.owner, "GET", `/users/${mia.id}`)).body.user).toMatchObject({ is_active: false });

    await openSection(page, "deactivated", "Deactivated users");
    await overlay(page).getByRole("button", { name: `Reactivate ${mia.fullName}` }).click();
    await gone(overlay(page).getByRole("button", { name: `Reactivate ${mia.fullName}` }));
    expect((await org.api(org.users.owner, "GET", `/users/${mia.id}`)).body.user).toMatchObject({ is_active: true });
    await org.api(org.users.owner, "PATCH", `/users/${mia.id}`, { role: 400 });
  });

  it("an administrator creates a custom profile field, a user group with a member, and a default channel", async () => {
    const { page } = await browsers.newPerson(org, org.users.admin);
    await openSection(page, "profile-field-settings", "Custom profile fields");
    const field = unique("Team ");
    const add = overlay(page).getByRole("form", { name: "Add a new profile field" });
    await add.getByLabel("Type").selectOption({ label: "List of options" });
    await add.getByLabel("Label").fill(field);
    await add.getByLabel("Hint").fill("Which team you are on");
    await add.getByLabel("Options (one per line)").fill("Red\nBlue");
    await add.getByRole("button", { name: "Add" }).click();
    await visible(overlay(page).getByRole("cell", { name: field }));
    const fields = (await org.api(org.users.admin, "GET", "/realm/profile_fields")).body.custom_fields as { name: string; type: number }[];
    expect(fields.find((f) => f.name === field)).toMatchObject({ type: 3 });
    await saveScreenshot(page, "org-profile-fields");

    await openSection(page, "user-groups", "User groups");
    const group = unique("design");
    const create = overlay(page).getByRole("form", { name: "Create user group" });
    await create.getByLabel("Group name").fill(group);
    await create.getByLabel("Description").fill("The design team");
    await create.getByLabel("Members").selectOption({ label: org.users.member.fullName });
    await create.getByRole("button", { name: "Create" }).click();
    const row = overlay(page).getByRole("row").filter({ hasText: group });
    await visible(row.getByRole("cell", { name: org.users.member.fullName }));
    const groups = (await org.api(org.users.admin, "GET", "/user_groups")).body.user_groups as { name: string; members: number[] }[];
    expect(groups.find((g) => g.name === group)?.members).toEqual([org.users.member.id]);
    await saveScreenshot(page, "org-user-groups");

    const stream = unique("announce");
    await createStream(org, org.users.admin, stream, [org.users.admin]);
    await openSection(page, "default-channels-list", "Default channels");
    const addStream = overlay(page).getByRole("form", { name: "Add a default channel" });
    await addStream.getByLabel("Channel to add").selectOption({ label: stream });
    await addStream.getByRole("button", { name: "Add channel" }).click();
    await visible(overlay(page).getByRole("cell", { name: stream, exact: true }));
    const defaults = (await register(org.users.admin, ["default_streams"])).realm_default_streams as { name: string }[];
    expect(defaults.map((s) => s.name)).toContain(stream);
  });

  it("an administrator uploads a custom emoji and adds a linkifier; a bad pattern shows the server's message", async () => {
    const { page } = await browsers.newPerson(org, org.users.admin);
    await openSection(page, "emoji-settings", "Custom emoji");
    const emoji = unique("party_");
    const form = overlay(page).getByRole("form", { name: "Add a new emoji" });
    await form.getByLabel("Emoji name").fill(emoji);
    await form.getByLabel("Emoji image").setInputFiles({ name: "party.png", mimeType: "image/png", buffer: PNG });
    await form.getByRole("button", { name: "Add emoji" }).click();
    await visible(overlay(page).getByRole("img", { name: `:${emoji}:` }));
    const stored = (await org.api(org.users.admin, "GET", "/realm/emoji")).body.emoji as Record<string, { name: string }>;
    expect(Object.values(stored).map((e) => e.name)).toContain(emoji);
    await saveScreenshot(page, "org-emoji");

    await openSection(page, "linkifier-settings", "Linkifiers");
    const add = overlay(page).getByRole("form", { name: "Add a new linkifier" });
    const prefix = unique("T");
    await add.getByLabel("Pattern").fill(`${prefix}-(?P<id>[0-9]+)`);
    await add.getByLabel("URL template").fill("https://tracker.example/{id}");
    await add.getByRole("button", { name: "Add linkifier" }).click();
    await visible(overlay(page).getByRole("cell", { name: `${prefix}-(?P<id>[0-9]+)` }));

    const refused = await org.api(org.users.admin, "POST", "/realm/filters", { pattern: "(unclosed", url_template: "https://x.example/" });
    expect(refused.body.result).toBe("error");
    await add.getByLabel("Pattern").fill("(unclosed");
    await add.getByLabel("URL template").fill("https://x.example/");
    await add.getByRole("button", { name: "Add linkifier" }).click();
    await visible(add.getByRole("alert").filter({ hasText: String(refused.body.msg) }));
    await saveScreenshot(page, "org-linkifiers");
  });

  it("an administrator starts a data export and sees it listed", async () => {
    const { page } = await browsers.newPerson(org, org.users.admin);
    await openSection(page, "data-exports-admin", "Data exports");
    await overlay(page).getByRole("button", { name: "Start export of public data" }).click();
    await visible(overlay(page).getByRole("table", { name: "Data exports" }).getByRole("cell", { name: org.users.admin.fullName }));
    const exports = (await org.api(org.users.admin, "GET", "/export/realm")).body.exports as { acting_user_id: number }[];
    expect(exports.some((e) => e.acting_user_id === org.users.admin.id)).toBe(true);
    await saveScreenshot(page, "org-data-exports");
  });

  it("a member sees the pages read-only, without data exports", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await openFromMenu(page);
    await expect.poll(() => overlay(page).getByLabel("Organization name").isDisabled()).toBe(true);
    await visible(overlay(page).getByText("Only organization administrators can change this"));
    await expect.poll(() => overlay(page).getByRole("button", { name: "Upload icon" }).isDisabled()).toBe(true);
    expect(await overlay(page).getByRole("link", { name: "Data exports" }).count()).toBe(0);

    await openSection(page, "organization-permissions", "Organization permissions");
    await expect.poll(() => overlay(page).getByLabel("Who can add custom emoji").isDisabled()).toBe(true);
    await openSection(page, "users", "Users");
    await visible(overlay(page).getByRole("cell", { name: org.users.admin.fullName }));
    expect(await overlay(page).getByRole("combobox").count()).toBe(0);
    expect(await overlay(page).getByRole("button", { name: /^Deactivate / }).count()).toBe(0);
    await openSection(page, "linkifier-settings", "Linkifiers");
    expect(await overlay(page).getByRole("form", { name: "Add a new linkifier" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "org-member-readonly");
  });

  // In groups, so that each test stays well within its time on a busy machine.
  for (let from = 0; from < SECTIONS.length; from += 4) {
    const group = SECTIONS.slice(from, from + 4);
    it(`no serious axe violation, reached by keyboard: ${group.map(([id]) => id).join(", ")}`, async () => {
      const { page } = await browsers.newPerson(org, org.users.owner);
      await openFromMenu(page);
      for (const [id, heading, shot] of group) {
        const link = overlay(page).getByRole("navigation").getByRole("link", { name: heading, exact: true });
        await tabBackTo(page, link);
        await page.keyboard.press("Enter");
        await visible(overlay(page).getByRole("heading", { name: heading, level: 2 }));
        expect(page.url()).toContain(`#organization/${id}`);
        expect(await seriousViolations(page), id).toEqual([]);
        await saveScreenshot(page, shot);
      }
    });
  }
});
