import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, gone, goToHash, linkNamed, saveScreenshot, seriousViolations, unique, useBrowser, visible } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The sidebar's link to a stream (the overlay, when open, covers it). */
function sidebarStream(page: Page, name: string): Locator {
  return page.getByRole("navigation", { name: "Channels and conversations" }).getByRole("link", { name: new RegExp(`^${name}\\b`) });
}

/** The channel settings overlay. */
function overlay(page: Page): Locator {
  return page.getByRole("region", { name: "Channel settings" });
}

async function closeOverlay(page: Page): Promise<void> {
  await overlay(page).getByRole("button", { name: "Close" }).click();
  await gone(overlay(page));
}

/** The subscription of `user` to a stream, as the server reports it (undefined when not subscribed). */
async function subscriptionOf(user: (typeof org.users)["member"], streamId: number): Promise<Record<string, unknown> | undefined> {
  const res = await org.api(user, "GET", "/users/me/subscriptions");
  return (res.body.subscriptions as Record<string, unknown>[]).find((s) => s.stream_id === streamId);
}

/** Whether the element has the keyboard focus. */
async function focused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

/** Presses Tab until `target` has the focus (at most `max` times); fails if it never does. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await focused(target)) return;
    await page.keyboard.press("Tab");
  }
  expect(await focused(target), `${target} reached by Tab`).toBe(true);
}

describe("channel settings", () => {
  it("browsing all channels: a member subscribes to a public stream, which joins the sidebar, then unsubscribes", async () => {
    const name = unique("lighthouse");
    const streamId = await createStream(org, org.users.owner, name, [org.users.owner]);
    await org.api(org.users.owner, "PATCH", `/streams/${streamId}`, { description: "Keepers of the lamp" });
    const { page } = await browsers.newPerson(org, org.users.member);

    await goToHash(page, "#channels/all");
    const row = overlay(page).getByRole("listitem").filter({ has: page.getByRole("link", { name, exact: true }) });
    await visible(row.getByText("Keepers of the lamp"));
    await visible(row.getByText("1 subscriber"));
    await visible(row.getByRole("img", { name: "Public" }));
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "channels-browse");

    await overlay(page).getByRole("searchbox", { name: "Filter channels" }).fill("keepers LAMP");
    await overlay(page).getByRole("button", { name: `Subscribe to ${name}` }).click();
    await visible(overlay(page).getByRole("button", { name: `Unsubscribe from ${name}` }));
    await visible(row.getByText("2 subscribers"));
    expect(await subscriptionOf(org.users.member, streamId)).toBeDefined();
    await closeOverlay(page);
    await visible(sidebarStream(page, name));

    await goToHash(page, "#channels/subscribed");
    await overlay(page).getByRole("button", { name: `Unsubscribe from ${name}` }).click();
    await gone(overlay(page).getByRole("link", { name, exact: true }));
    await closeOverlay(page);
    await gone(sidebarStream(page, name));
    expect(await subscriptionOf(org.users.member, streamId)).toBeUndefined();
  });

  it("an administrator creates a private stream with B; B sees it arrive, then its new name and description; B may not edit it", async () => {
    const name = unique("council");
    const admin = await browsers.newPerson(org, org.users.admin);
    const b = await browsers.newPerson(org, org.users.member);

    await goToHash(admin.page, "#channels/new");
    const form = overlay(admin.page).getByRole("form", { name: "Create a channel" });
    await form.getByLabel("Channel name").fill(name);
    await form.getByLabel("Description").fill("Plans in progress");
    await form.getByRole("radio", { name: "Private, shared history" }).check();
    await form.getByRole("combobox", { name: "Add subscribers" }).fill(org.users.member.fullName);
    await form.getByRole("option", { name: new RegExp(org.users.member.fullName) }).click();
    await visible(form.getByRole("list", { name: "Chosen subscribers" }).getByText(org.users.member.fullName));
    expect(await seriousViolations(admin.page)).toEqual([]);
    await saveScreenshot(admin.page, "channel-new");
    await form.getByRole("button", { name: "Create" }).click();

    // The new stream's settings open; B's sidebar shows it.
    await visible(overlay(admin.page).getByRole("heading", { name }));
    await visible(sidebarStream(b.page, name));
    const streamId = (await org.api(org.users.admin, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
    const stored = await org.api(org.users.admin, "GET", `/streams/${streamId}`);
    expect(stored.body.stream).toMatchObject({ invite_only: true, history_public_to_subscribers: true, description: "Plans in progress" });
    const members = await org.api(org.users.admin, "GET", `/streams/${streamId}/members`);
    expect([...(members.body.subscribers as number[])].sort()).toEqual([org.users.admin.id, org.users.member.id].sort());

    // A name already taken is refused with the server's message.
    const general = overlay(admin.page).getByRole("form", { name: "Name and description" });
    const taken = unique("taken");
    await createStream(org, org.users.owner, taken, [org.users.owner]);
    await general.getByLabel("Channel name").fill(taken);
    await general.getByRole("button", { name: "Save name and description" }).click();
    await visible(general.getByRole("alert").getByText("Channel name already in use."));

    const renamed = unique("assembly");
    await general.getByLabel("Channel name").fill(renamed);
    await general.getByLabel("Description").fill("Decisions, openly");
    await general.getByRole("button", { name: "Save name and description" }).click();
    await visible(sidebarStream(b.page, renamed));
    await visible(overlay(admin.page).getByRole("heading", { name: renamed }));
    expect(await seriousViolations(admin.page)).toEqual([]);
    await saveScreenshot(admin.page, "channel-general");
    await gone(sidebarStream(b.page, name));
    expect((await org.api(org.users.admin, "GET", `/streams/${streamId}`)).body.stream).toMatchObject({ name: renamed, description: "Decisions, openly" });

    // B, a member, sees the fields disabled and why.
    await goToHash(b.page, `#channels/${streamId}/${renamed}/general`);
    const bGeneral = overlay(b.page).getByRole("form", { name: "Name and description" });
    await visible(overlay(b.page).getByText("Only organization administrators and channel administrators can change this channel's settings."));
    expect(await bGeneral.getByLabel("Channel name").inputValue()).toBe(renamed);
    expect(await bGeneral.getByLabel("Channel name").isDisabled()).toBe(true);
    expect(await overlay(b.page).getByRole("button", { name: "Archive channel" }).isDisabled()).toBe(true);
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it("personal settings: color shows on the sidebar swatch, mute dims the stream, both stored", async () => {
    const name = unique("garden");
    const streamId = await createStream(org, org.users.owner, name, [org.users.owner, org.users.member2]);
    const { page } = await browsers.newPerson(org, org.users.member2);
    await visible(sidebarStream(page, name));

    await goToHash(page, `#channels/${streamId}/${name}/personal`);
    const personal = overlay(page);
    await personal.getByLabel("Channel color").fill("#c2185b");
    await personal.getByRole("checkbox", { name: "Mute channel" }).check();
    await personal.getByRole("checkbox", { name: "Desktop notifications", exact: true }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await expect.poll(async () => (await subscriptionOf(org.users.member2, streamId))?.is_muted).toBe(true);
    await expect.poll(async () => (await subscriptionOf(org.users.member2, streamId))?.color).toBe("#c2185b");
    expect(await subscriptionOf(org.users.member2, streamId)).toMatchObject({ desktop_notifications: true });
    await visible(personal.getByRole("checkbox", { name: "Mute channel", checked: true }));

    await closeOverlay(page);
    const item = page
      .getByRole("navigation", { name: "Channels and conversations" })
      .locator(".sidebar-stream")
      .filter({ has: page.getByRole("link", { name: new RegExp(`^${name}\\b`) }) });
    await expect.poll(() => item.locator(".stream-swatch").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(194, 24, 91)");
    await expect.poll(() => item.getAttribute("class")).toContain("muted");
  });

  it("subscribers: an administrator adds and removes B, who sees the stream come and go; a member watching the list sees it live", async () => {
    const name = unique("harbour");
    const streamId = await createStream(org, org.users.owner, name, [org.users.owner, org.users.member]);
    const admin = await browsers.newPerson(org, org.users.admin);
    const b = await browsers.newPerson(org, org.users.member2);
    const watcher = await browsers.newPerson(org, org.users.member);

    await goToHash(watcher.page, `#channels/${streamId}/${name}/subscribers`);
    await visible(overlay(watcher.page).getByRole("heading", { name: "2 subscribers" }));
    // A member may not remove others: no such button, and the reason.
    await visible(overlay(watcher.page).getByText("Only organization administrators and channel administrators can unsubscribe other people."));
    expect(await overlay(watcher.page).getByRole("button", { name: `Remove ${org.users.owner.fullName}` }).count()).toBe(0);

    await goToHash(admin.page, `#channels/${streamId}/${name}/subscribers`);
    const tab = overlay(admin.page);
    await visible(tab.getByRole("heading", { name: "2 subscribers" }));
    await tab.getByRole("combobox", { name: "Add subscribers" }).fill(org.users.member2.fullName);
    await admin.page.keyboard.press("Enter");
    await tab.getByRole("button", { name: "Add", exact: true }).click();
    await visible(tab.getByRole("cell", { name: org.users.member2.fullName, exact: true }));
    await visible(sidebarStream(b.page, name));
    await visible(overlay(watcher.page).getByRole("cell", { name: org.users.member2.fullName, exact: true }));
    await visible(overlay(watcher.page).getByRole("heading", { name: "3 subscribers" }));
    expect(await seriousViolations(admin.page)).toEqual([]);

    await tab.getByRole("searchbox", { name: "Search subscribers" }).fill(org.users.member2.fullName);
    await gone(tab.getByRole("cell", { name: org.users.owner.fullName, exact: true }));
    await tab.getByRole("button", { name: `Remove ${org.users.member2.fullName}` }).click();
    await gone(sidebarStream(b.page, name));
    await gone(overlay(watcher.page).getByRole("cell", { name: org.users.member2.fullName, exact: true }));
    const members = await org.api(org.users.admin, "GET", `/streams/${streamId}/members`);
    expect(members.body.subscribers).not.toContain(org.users.member2.id);
  });

  it("keyboard: the sidebar's gear opens a stream's settings and every tab is reached with Tab", async () => {
    const name = unique("kiosk");
    await createStream(org, org.users.owner, name, [org.users.owner, org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await visible(sidebarStream(page, name));

    await sidebarStream(page, name).focus();
    const gear = page.getByRole("link", { name: `Channel settings for ${name}` });
    await tabTo(page, gear, 3);
    await page.keyboard.press("Enter");
    await visible(overlay(page).getByRole("heading", { name }));

    const tabs = overlay(page).getByRole("navigation", { name: "Channel settings tabs" });
    for (const [label, shows] of [
      ["Personal", "Channel color"],
      ["Subscribers", "Search subscribers"],
      ["General", "Channel name"],
    ] as const) {
      await tabTo(page, tabs.getByRole("link", { name: label }));
      await page.keyboard.press("Enter");
      await visible(overlay(page).getByLabel(shows));
      expect(await seriousViolations(page)).toEqual([]);
    }
  });

  it("a member whom the organization does not let create public streams sees the choice disabled with the reason", async () => {
    const groups = (await org.api(org.users.owner, "GET", "/user_groups")).body.user_groups as { id: number; name: string }[];
    const admins = groups.find((g) => g.name === "role:administrators")!.id;
    const members = groups.find((g) => g.name === "role:members")!.id;
    const set = await org.api(org.users.owner, "PATCH", "/realm", { can_create_public_channel_group: JSON.stringify({ new: admins }) });
    expect(set.body).toMatchObject({ result: "success" });
    try {
      const { page } = await browsers.newPerson(org, org.users.member);
      await goToHash(page, "#channels/new");
      const form = overlay(page).getByRole("form", { name: "Create a channel" });
      await visible(form.getByText("Only administrators can create public channels in this organization."));
      expect(await form.getByRole("radio", { name: "Public", exact: true }).isDisabled()).toBe(true);
      expect(await form.getByRole("radio", { name: "Private, shared history" }).isDisabled()).toBe(false);

      // A name with a character the server refuses: its message shows under the form.
      await form.getByRole("radio", { name: "Private, shared history" }).check();
      await form.getByLabel("Channel name").fill("bad\u0000name");
      await form.getByRole("button", { name: "Create" }).click();
      await visible(form.getByRole("alert").getByText(/Invalid character in channel name/));
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await org.api(org.users.owner, "PATCH", "/realm", { can_create_public_channel_group: JSON.stringify({ new: members }) });
    }
  });
});
