/**
 * Invitations in the browser (https://zulip.com/help/invite-new-users): the
 * "Invite users to organization" dialog from the personal menu and the left
 * sidebar, the mail it sends in the local stack's mailbox, organization
 * settings › Invitations kept live for a second administrator, revoking,
 * the reusable link and its "Copy link", and what people the organization's
 * policy excludes see.
 */
import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";
import { gone, goToHash, saveScreenshot, seriousViolations, unique, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

const EMAILS_LABEL = "Emails (one on each line or comma-separated)";

/** The invitation dialog. */
function inviteDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Invite users to organization" });
}

/** Organization settings › Invitations' table. */
function invitationsTable(page: Page): Locator {
  return page.getByRole("region", { name: "Organization settings" }).getByRole("table", { name: "Pending invitations" });
}

/** Presses Tab until `target` has the focus (at most `max` times); fails when it never does. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("not reachable with the keyboard");
}

/** Opens organization settings › Invitations and waits for its heading. */
async function openInvitations(page: Page): Promise<void> {
  await goToHash(page, "#organization/invites-list-admin");
  await visible(page.getByRole("heading", { name: "Invitations", level: 2 }));
}

/** Sets a realm policy through the API as the owner. */
async function setRealm(params: Record<string, unknown>): Promise<void> {
  const r = await org.api(org.users.owner, "PATCH", "/realm", params);
  expect(r.body).toMatchObject({ result: "success" });
}

describe("invitations", () => {
  it("an administrator invites by email from the personal menu with the keyboard; the other administrator's table shows it live; the mail arrives; revoking removes it", async () => {
    const owner = await browsers.newPerson(org, org.users.owner);
    const admin = await browsers.newPerson(org, org.users.admin);
    await openInvitations(owner.page);
    const email = `${unique("invitee-")}@test.example`;

    // Keyboard only: the personal menu, "Invite users", the fields, "Invite".
    const page = admin.page;
    await page.getByRole("button", { name: "Personal menu" }).focus();
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("button", { name: "Invite users", exact: true }));
    await page.keyboard.press("Enter");
    const dialog = inviteDialog(page);
    await visible(dialog);
    await tabTo(page, dialog.getByLabel(EMAILS_LABEL));
    await page.keyboard.type(email);
    await dialog.getByLabel("Users join as").selectOption({ label: "Guests" });
    await dialog.getByLabel("Invitation expires after").selectOption({ label: "30 days" });
    expect(await dialog.getByLabel("Default channels for this organization").isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "invite-dialog");
    await tabTo(page, dialog.getByRole("button", { name: "Invite", exact: true }));
    await page.keyboard.press("Enter");
    await visible(dialog.getByRole("status").filter({ hasText: "Invitation sent to:" }));
    await visible(dialog.getByRole("list", { name: "Invited" }).getByText(email));

    // The owner's open table gets the row through invites_changed.
    const row = invitationsTable(owner.page).getByRole("row").filter({ hasText: email });
    await visible(row);
    await expect.poll(() => row.getByRole("cell").allTextContents()).toEqual([email, org.users.admin.fullName, expect.any(String), expect.any(String), "Guest", expect.any(String)]);
    expect(await seriousViolations(owner.page)).toEqual([]);
    await saveScreenshot(owner.page, "org-invitations");

    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "invitation" && m.to === email);
    expect(mail.links.some((l) => l.includes("/accounts/do_confirm/"))).toBe(true);

    // Revoke, after the confirmation; the row leaves both tables.
    await page.keyboard.press("Escape");
    await gone(dialog);
    await openInvitations(page);
    await visible(invitationsTable(page).getByRole("row").filter({ hasText: email }));
    await owner.page.getByRole("button", { name: `Revoke invitation to ${email}` }).click();
    const confirm = owner.page.getByRole("dialog", { name: "Revoke invitation" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await gone(confirm);
    await gone(row);
    await gone(invitationsTable(page).getByRole("row").filter({ hasText: email }));
    const listed = await org.api(org.users.owner, "GET", "/invites");
    expect((listed.body.invites as { email?: string }[]).some((i) => i.email === email)).toBe(false);
  });

  it("an administrator creates a reusable link from the left sidebar and copies it", async () => {
    const { page, context } = await browsers.newPerson(org, org.users.admin);
    await page.getByRole("navigation", { name: "Channels and conversations" }).getByRole("button", { name: "Invite users to organization" }).click();
    const dialog = inviteDialog(page);
    await dialog.getByRole("tab", { name: "Invitation link" }).click();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const field = dialog.getByLabel("Invitation link");
    await expect.poll(() => field.inputValue()).toMatch(/\/join\/[a-z0-9]{24}\/$/);
    const link = await field.inputValue();
    expect(link.startsWith(org.url)).toBe(true);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(org.url).origin });
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await visible(dialog.getByText("Link copied."));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "invite-link");

    await page.keyboard.press("Escape");
    await openInvitations(page);
    await visible(invitationsTable(page).getByRole("row").filter({ hasText: "Reusable link" }).first());
  });

  it("a member sees the server's reason for each address not invited; with the policy at administrators, members get no entry and an open dialog explains", async () => {
    const member = await browsers.newPerson(org, org.users.member);
    const page = member.page;
    await page.getByRole("button", { name: "Personal menu" }).click();
    await page.getByRole("button", { name: "Invite users", exact: true }).click();
    const dialog = inviteDialog(page);
    // Members send email invitations only, as members or guests.
    await gone(dialog.getByRole("tab", { name: "Invitation link" }));
    expect(await dialog.getByLabel("Users join as").locator("option").allTextContents()).toEqual(["Members", "Guests"]);
    await dialog.getByLabel(EMAILS_LABEL).fill(org.users.member2.email);
    await dialog.getByRole("button", { name: "Invite", exact: true }).click();
    const alert = dialog.getByRole("alert");
    await visible(alert.getByText(org.users.member2.email));
    await visible(alert.getByText("Already has an account.", { exact: false }));

    await setRealm({ invite_to_realm_policy: 2 });
    try {
      const other = await browsers.newPerson(org, org.users.member2);
      await other.page.getByRole("button", { name: "Personal menu" }).click();
      await visible(other.page.getByRole("link", { name: "Personal settings" }));
      expect(await other.page.getByRole("button", { name: "Invite users", exact: true }).count()).toBe(0);
      expect(await other.page.getByRole("button", { name: "Invite users to organization" }).count()).toBe(0);
      await goToHash(other.page, "#organization/users");
      await visible(other.page.getByRole("heading", { name: "Users", level: 2 }));
      expect(await other.page.getByRole("navigation", { name: "Organization settings sections" }).getByRole("link", { name: "Invitations" }).count()).toBe(0);
      // The dialog still open in the first member's page follows the realm event: it explains instead.
      await visible(dialog.getByText("You do not have permission to invite users to this organization."));
      // And the server refuses the member outright.
      const refused = await org.api(org.users.member, "POST", "/invites", { invitee_emails: `${unique("late-")}@test.example`, stream_ids: [] });
      expect(refused.body).toMatchObject({ result: "error", msg: "Insufficient permission" });
    } finally {
      await setRealm({ invite_to_realm_policy: 1 });
    }
  });
});
