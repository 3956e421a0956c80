import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import {
  createStream,
  gone,
  goToHash,
  linkNamed,
  messageText,
  saveScreenshot,
  sendDirectMessage,
  sendStreamMessage,
  unique,
  useBrowser,
  visible,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The hash of a topic narrow, as the app writes it. */
function topicHash(streamId: number, stream: string, topic: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/\./g, "%2E").replace(/%/g, ".");
  return `#narrow/channel/${streamId}-${enc(stream)}/topic/${enc(topic)}`;
}

/** Opens the "Topic actions" menu of the first recipient header of `topic` in the feed. */
async function openHeaderMenu(page: Page, topic: string) {
  const header = page.locator(".recipient-header", { has: page.getByRole("link", { name: topic, exact: true }) }).first();
  await header.getByRole("button", { name: "Topic actions" }).click();
  const menu = page.getByRole("menu", { name: `Actions for topic ${topic}` });
  await visible(menu);
  return menu;
}

/**
 * Makes the page believe its window has no focus (as a background tab), from
 * the next load on: messages shown stay unread and notifications are not
 * held back for the open view.
 */
async function unfocused(page: Page): Promise<void> {
  await page.context().addInitScript({ content: "document.hasFocus = () => false;" });
  await page.reload();
}

/** The reader's topic visibility policies and muted users, as register reports them. */
async function registered(user: (typeof org.users)["member"]) {
  const r = await org.api(user, "POST", "/register", { fetch_event_types: JSON.stringify(["user_topic", "muted_users"]) });
  return r.body as { user_topics: { stream_id: number; topic_name: string; visibility_policy: number }[]; muted_users: { id: number }[] };
}

describe("topics", () => {
  it("A moves a topic to another stream; B, viewing that topic, follows it to its new place live", async () => {
    // Prepare: a moderator (A) may move topics between streams under the default policy.
    const from = unique("quay");
    const to = unique("dock");
    const topic = unique("cargo");
    const moved = unique("freight");
    const fromId = await createStream(org, org.users.owner, from, [org.users.moderator, org.users.member2]);
    const toId = await createStream(org, org.users.owner, to, [org.users.moderator, org.users.member2]);
    const text = unique("crates on pier ");
    await sendStreamMessage(org, org.users.moderator, from, topic, text);
    const a = await browsers.newPerson(org, org.users.moderator);
    const b = await browsers.newPerson(org, org.users.member2);
    await goToHash(b.page, topicHash(fromId, from, topic));
    await visible(messageText(b.page, text));

    // Act: A opens the stream and moves the topic from its sidebar menu.
    await linkNamed(a.page, from).first().click();
    const item = a.page.getByRole("listitem").filter({ has: a.page.getByRole("link", { name: new RegExp(`^${topic}`) }) });
    await item.getByRole("button", { name: "Topic actions" }).click();
    await visible(a.page.getByRole("menuitem", { name: "Move topic" }));
    await saveScreenshot(a.page, "topic-menu");
    await a.page.getByRole("menuitem", { name: "Move topic" }).click();
    const dialog = a.page.getByRole("dialog", { name: "Move topic" });
    await dialog.getByLabel("Destination channel").selectOption({ label: to });
    await dialog.getByLabel("New topic name").fill(moved);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await gone(dialog);

    // Assess: B's view is now the new place, showing the message.
    await b.page.waitForFunction((id) => location.hash.startsWith(`#narrow/channel/${id}-`), toId);
    expect(decodeURIComponent(await b.page.evaluate(() => location.hash.replace(/\./g, "%")))).toContain(`/topic/${moved}`);
    await visible(messageText(b.page, text));
    const stored = await org.api(org.users.member2, "GET", "/messages", {
      anchor: "newest",
      num_before: 5,
      num_after: 0,
      narrow: JSON.stringify([{ operator: "channel", operand: toId }, { operator: "topic", operand: moved }]),
    });
    expect(stored.body.messages.map((m: { content: string }) => m.content)).toContain(`<p>${text}</p>`);
  });

  it("resolves and unresolves a topic; a member may not move it elsewhere; a refusal shows the server's message", async () => {
    const stream = unique("ledger");
    const topic = unique("invoice");
    const streamId = await createStream(org, org.users.owner, stream, [org.users.member]);
    await sendStreamMessage(org, org.users.member, stream, topic, unique("please pay "));
    const a = await browsers.newPerson(org, org.users.member);
    await goToHash(a.page, topicHash(streamId, stream, topic));

    // Resolve: the open view follows the rename to "✔ topic".
    await (await openHeaderMenu(a.page, topic)).getByRole("menuitem", { name: "Mark as resolved" }).click();
    const header = a.page.locator(".recipient-header");
    await visible(header.getByRole("link", { name: `✔ ${topic}`, exact: true }));
    let topics = await org.api(org.users.member, "GET", `/users/me/${streamId}/topics`);
    expect(topics.body.topics.map((t: { name: string }) => t.name)).toContain(`✔ ${topic}`);

    // Unresolve.
    await (await openHeaderMenu(a.page, `✔ ${topic}`)).getByRole("menuitem", { name: "Mark as unresolved" }).click();
    await visible(header.getByRole("link", { name: topic, exact: true }));
    topics = await org.api(org.users.member, "GET", `/users/me/${streamId}/topics`);
    expect(topics.body.topics.map((t: { name: string }) => t.name)).toContain(topic);

    // A member may rename but not move to another stream (default policy: moderators).
    const menu = await openHeaderMenu(a.page, topic);
    await expect(menu.getByRole("menuitem", { name: "Move topic" }).count()).resolves.toBe(0);
    await menu.getByRole("menuitem", { name: "Rename topic" }).click();
    const dialog = a.page.getByRole("dialog", { name: "Rename topic" });
    await expect(dialog.getByLabel("Destination channel").isDisabled()).resolves.toBe(true);
    await visible(dialog.getByText("You do not have permission to move messages to another channel in this organization."));

    // The organization turns topic editing to administrators while the dialog is open: the server refuses.
    await org.api(org.users.owner, "PATCH", "/realm", { edit_topic_policy: 2 });
    try {
      await dialog.getByLabel("New topic name").fill(unique("renamed"));
      await dialog.getByRole("button", { name: "Confirm" }).click();
      await visible(dialog.getByRole("alert").getByText("You don't have permission to edit this message"));
    } finally {
      await org.api(org.users.owner, "PATCH", "/realm", { edit_topic_policy: 5 });
    }
  });

  it("muting a topic hides it from the combined feed and its unread count", async () => {
    const stream = unique("chatter");
    const noisy = unique("noise");
    const calm = unique("calm");
    const streamId = await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const noiseText = unique("blah ");
    const b = await browsers.newPerson(org, org.users.member2);
    await unfocused(b.page);
    await sendStreamMessage(org, org.users.member, stream, noisy, noiseText);
    await sendStreamMessage(org, org.users.member, stream, noisy, unique("more blah "));
    await sendStreamMessage(org, org.users.member, stream, calm, unique("a calm word "));
    await visible(messageText(b.page, noiseText));
    const streamLink = linkNamed(b.page, stream).first();
    await expect.poll(() => streamLink.textContent()).toMatch(/3 unread/);

    await (await openHeaderMenu(b.page, noisy)).getByRole("menuitem", { name: "Mute topic" }).click();

    await gone(messageText(b.page, noiseText));
    await expect.poll(() => streamLink.textContent()).toMatch(/1 unread/);
    const state = await registered(org.users.member2);
    expect(state.user_topics).toContainEqual(expect.objectContaining({ stream_id: streamId, topic_name: noisy, visibility_policy: 1 }));
  });
});

describe("people", () => {
  it("a user card shows role, local time and a custom profile field; muting the user hides their messages", async () => {
    const fieldName = unique("Desk");
    const created = await org.api(org.users.owner, "POST", "/realm/profile_fields", { name: fieldName, field_type: 1, hint: "", display_in_profile_summary: true });
    expect(created.body).toMatchObject({ result: "success" });
    await org.api(org.users.member, "PATCH", "/users/me/profile_data", { data: JSON.stringify([{ id: created.body.id, value: "North wing 4" }]) });
    await org.api(org.users.member, "PATCH", "/settings", { timezone: "Asia/Kolkata" });
    const stream = unique("lobby");
    await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const text = unique("hello from the desk ");
    const id = await sendStreamMessage(org, org.users.member, stream, "greetings", text);
    const b = await browsers.newPerson(org, org.users.member2);
    await visible(messageText(b.page, text));

    const row = b.page.locator(`article[data-message-id="${id}"]`);
    await row.getByRole("button", { name: org.users.member.fullName, exact: true }).click();
    const card = b.page.getByRole("dialog", { name: `User card: ${org.users.member.fullName}` });
    await visible(card);
    await visible(card.getByText("Member", { exact: true }));
    await visible(card.getByText("Local time"));
    await visible(card.getByText(/^\d{1,2}:\d{2} (AM|PM)$/));
    await visible(card.getByText(fieldName));
    await visible(card.getByText("North wing 4"));
    await saveScreenshot(b.page, "user-card");

    await card.getByRole("button", { name: "Mute user" }).click();
    try {
      await visible(row.getByText("This message was hidden because you have muted the sender."));
      await gone(messageText(b.page, text));
      expect((await registered(org.users.member2)).muted_users.map((m) => m.id)).toContain(org.users.member.id);

      // Unmute from the card again (the name now reads "Muted user").
      await row.getByRole("button", { name: "Muted user" }).click();
      await card.getByRole("button", { name: "Unmute user" }).click();
      await visible(messageText(b.page, text));
      expect((await registered(org.users.member2)).muted_users.map((m) => m.id)).not.toContain(org.users.member.id);
    } finally {
      await org.api(org.users.member2, "DELETE", `/users/me/muted_users/${org.users.member.id}`);
    }
  });

  it("A sets a status from the personal menu; B sees it next to A's name live", async () => {
    const a = await browsers.newPerson(org, org.users.member);
    const b = await browsers.newPerson(org, org.users.member2);
    const people = b.page.getByRole("complementary", { name: "People" });
    await visible(people.getByRole("link", { name: new RegExp(org.users.member.fullName) }));

    await a.page.getByRole("button", { name: "Personal menu" }).click();
    await a.page.getByRole("button", { name: "Set status" }).click();
    const dialog = a.page.getByRole("dialog", { name: "Set status" });
    await dialog.getByRole("button", { name: "In a meeting" }).click();
    await expect(dialog.getByLabel("Status message").inputValue()).resolves.toBe("In a meeting");
    await saveScreenshot(a.page, "set-status");
    await dialog.getByRole("button", { name: "Save" }).click();
    await gone(dialog);

    const item = people.getByRole("listitem").filter({ hasText: org.users.member.fullName });
    await visible(item.getByRole("img", { name: "Status: In a meeting" }));
    const status = await org.api(org.users.member2, "GET", `/users/${org.users.member.id}/status`);
    expect(status.body.status).toMatchObject({ status_text: "In a meeting", emoji_name: "calendar" });

    // Clearing it takes it away for B too.
    await a.page.getByRole("button", { name: "Personal menu" }).click();
    await a.page.getByRole("button", { name: "Set status" }).click();
    await a.page.getByRole("dialog", { name: "Set status" }).getByRole("button", { name: "Clear status" }).click();
    await gone(item.getByRole("img", { name: "Status: In a meeting" }));
  });
});

describe("notifications", () => {
  it("a direct message from A shows B a desktop notification and a badge on the favicon", async () => {
    const stream = unique("quiet");
    const streamId = await createStream(org, org.users.owner, stream, [org.users.member2]);
    const b = await browsers.newPerson(org, org.users.member2);
    await b.context.grantPermissions(["notifications"]);
    await b.context.addInitScript({
      content: `window.__notes = [];
        window.Notification = class { static permission = "granted";
          static requestPermission() { return Promise.resolve("granted"); }
          constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
          close() {} };`,
    });
    await b.page.reload();
    // B reads another conversation, so the DM is not in the open view.
    await goToHash(b.page, `#narrow/channel/${streamId}-${stream}`);
    await visible(b.page.locator(".feed-empty"));
    await b.page.waitForFunction(() => document.querySelector("link[rel~='icon']")?.getAttribute("data-badge") !== null);
    const before = await b.page.evaluate(() => Number(document.querySelector("link[rel~='icon']")?.getAttribute("data-badge") || 0));

    const text = unique("are you there ");
    await sendDirectMessage(org, org.users.member, [org.users.member2], text);

    const notes = await b.page.waitForFunction(() => (window as unknown as { __notes: { title: string; body: string }[] }).__notes.at(-1));
    expect(await notes.jsonValue()).toEqual({ title: org.users.member.fullName, body: text });
    await b.page.waitForFunction((n) => document.querySelector("link[rel~='icon']")?.getAttribute("data-badge") === String(n + 1), before);
    const href = await b.page.evaluate(() => document.querySelector("link[rel~='icon']")?.getAttribute("href"));
    expect(href).toMatch(/^data:image\/png;base64,/);
  });
});
