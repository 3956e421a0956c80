import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import {
  composeBox,
  createStream,
  gone,
  goToHash,
  messageText,
  saveScreenshot,
  sendStreamMessage,
  unique,
  useBrowser,
  visible,
  WAIT_MS,
  waitForUnreadCountShown,
  watchUnreadCounts,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** `expect.poll` with the waits' timeout (its own default, one second, is too short on a loaded machine). */
function poll<T>(fn: () => Promise<T> | T) {
  return expect.poll(fn, { timeout: WAIT_MS });
}

/** The article of the message whose text contains `text`. */
function row(page: Page, text: string) {
  return page.getByRole("article").filter({ hasText: text });
}

/** One of a message's action buttons, by its accessible name. */
function action(page: Page, text: string, name: string) {
  return row(page, text).getByRole("button", { name, exact: true });
}

/** Opens a message's "Message actions" menu and picks `item`. */
async function menuItem(page: Page, text: string, item: string): Promise<void> {
  await action(page, text, "Message actions").click();
  await page.getByRole("menu", { name: "Message actions" }).getByRole("menuitem", { name: item, exact: true }).click();
}

/** The hash of a topic. */
function topicHash(streamId: number, stream: string, topic: string): string {
  return `#narrow/channel/${streamId}-${stream}/topic/${topic}`;
}

/** A stream with A (member) and B (member2), a topic with A's messages, and both people reading it. */
async function topicWithMessages(...contents: string[]) {
  const stream = unique("quay");
  const topic = unique("crane");
  const streamId = await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
  const ids: number[] = [];
  for (const c of contents) ids.push(await sendStreamMessage(org, org.users.member, stream, topic, c));
  const a = await browsers.newPerson(org, org.users.member);
  const b = await browsers.newPerson(org, org.users.member2);
  const hash = topicHash(streamId, stream, topic);
  await goToHash(a.page, hash);
  await goToHash(b.page, hash);
  for (const c of contents) {
    await visible(messageText(a.page, c));
    await visible(messageText(b.page, c));
  }
  return { stream, streamId, topic, ids, a, b, hash };
}

/** Sets organization settings as the owner (`PATCH /realm`). */
async function realmSettings(settings: Record<string, unknown>): Promise<void> {
  const res = await org.api(org.users.owner, "PATCH", "/realm", settings);
  expect(res.body).toMatchObject({ result: "success" });
}

/** A message's flags for `user`, from the server. */
async function flagsOf(user: typeof org.users.member, id: number): Promise<string[]> {
  const res = await org.api(user, "GET", `/messages/${id}`);
  return res.body.message.flags as string[];
}

describe("message actions", () => {
  it("A edits a message in place; B sees the new text live, marked (edited); the edit history lists the previous content", async () => {
    // Prepare
    const before = unique("the ferry leaves at nine ");
    const after = unique("the ferry leaves at ten ");
    const { ids, a, b } = await topicWithMessages(before);

    // Act: Esc cancels a first try; the second saves with the button.
    await action(a.page, before, "Edit message").click();
    const textarea = a.page.getByRole("textbox", { name: "Edit message content", exact: true });
    await poll(() => textarea.inputValue()).toBe(before);
    await textarea.press("Escape");
    await gone(textarea);
    await action(a.page, before, "Edit message").click();
    await textarea.fill(after);
    await a.page.getByRole("button", { name: "Save", exact: true }).click();

    // Assess: B's copy changes live, and the server has the new text.
    await visible(messageText(b.page, after));
    await gone(messageText(b.page, before));
    await visible(row(b.page, after).getByText("(edited)"));
    await gone(textarea);
    const stored = await org.api(org.users.member2, "GET", `/messages/${ids[0]}`, { apply_markdown: false });
    expect(stored.body.message.content).toBe(after);

    // The edit history shows both versions, the original first.
    await menuItem(b.page, after, "View edit history");
    const dialog = b.page.getByRole("dialog", { name: "Message edit history" });
    await visible(dialog.getByText(before));
    await visible(dialog.getByText("Original message"));
    await saveScreenshot(b.page, "edit-history");
    await dialog.getByRole("button", { name: "Close" }).click();
    await gone(dialog);
  });

  it("Ctrl+Enter saves an edit started with the e shortcut on the selected message", async () => {
    const before = unique("bring rope ");
    const after = unique("bring more rope ");
    const { ids, a, b } = await topicWithMessages(before);

    await row(a.page, before).click();
    await a.page.keyboard.press("e");
    const textarea = a.page.getByRole("textbox", { name: "Edit message content", exact: true });
    await poll(() => textarea.inputValue()).toBe(before);
    await textarea.fill(after);
    await textarea.press("Control+Enter");

    await visible(messageText(b.page, after));
    const stored = await org.api(org.users.member, "GET", `/messages/${ids[0]}`, { apply_markdown: false });
    expect(stored.body.message.content).toBe(after);
  });

  it("shows the server's refusal in the edit form when an administrator turns editing off before the save", async () => {
    const before = unique("draft plan ");
    const { a } = await topicWithMessages(before);
    try {
      await action(a.page, before, "Edit message").click();
      const textarea = a.page.getByRole("textbox", { name: "Edit message content", exact: true });
      await poll(() => textarea.inputValue()).toBe(before);
      await realmSettings({ allow_message_editing: false });
      // The realm event takes "Edit message" away from the other messages; the open form stays.
      await textarea.fill(unique("final plan "));
      await a.page.getByRole("button", { name: "Save", exact: true }).click();

      // The form replaced the message's text, so the alert is found in the row that holds the form.
      const form = a.page.getByRole("article").filter({ has: textarea });
      await visible(form.getByRole("alert").getByText("Your organization has turned off message editing"));
      await poll(() => textarea.isVisible()).toBe(true);
    } finally {
      await realmSettings({ allow_message_editing: true });
    }
  });

  it("A deletes a message after confirming; it is gone for B and on the server", async () => {
    await realmSettings({ delete_own_message_policy: 1 });
    try {
      const keep = unique("keep this ");
      const doomed = unique("typo message ");
      const { ids, a, b } = await topicWithMessages(keep, doomed);

      await action(a.page, doomed, "Delete message").click();
      const dialog = a.page.getByRole("dialog", { name: "Delete message?" });
      await dialog.getByRole("button", { name: "Delete", exact: true }).click();

      await gone(messageText(b.page, doomed));
      await gone(messageText(a.page, doomed));
      await visible(messageText(b.page, keep));
      const stored = await org.api(org.users.member2, "GET", `/messages/${ids[1]}`);
      expect(stored.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
      // B may not delete A's message: no button.
      expect(await action(b.page, keep, "Delete message").count()).toBe(0);
    } finally {
      await realmSettings({ delete_own_message_policy: 2 });
    }
  });

  it("Star toggles the starred flag on the server, and stays after a reload", async () => {
    const content = unique("remember the tide table ");
    const { ids, a } = await topicWithMessages(content);
    const star = action(a.page, content, "Star");

    await star.click();
    await poll(() => star.getAttribute("aria-pressed")).toBe("true");
    await poll(() => flagsOf(org.users.member, ids[0]!)).toContain("starred");

    await a.page.reload();
    await poll(() => action(a.page, content, "Star").getAttribute("aria-pressed")).toBe("true");
    await action(a.page, content, "Star").click();
    await poll(() => flagsOf(org.users.member, ids[0]!)).not.toContain("starred");
    await poll(() => action(a.page, content, "Star").getAttribute("aria-pressed")).toBe("false");

    // The * shortcut stars the selected message.
    await row(a.page, content).click();
    await a.page.keyboard.press("*");
    await poll(() => flagsOf(org.users.member, ids[0]!)).toContain("starred");
  });

  it("Mark as unread from here makes that message and the later ones unread again, and the counts come back", async () => {
    const first = unique("one ");
    const second = unique("two ");
    const third = unique("three ");
    const { stream, ids, b } = await topicWithMessages(first, second, third);
    const read = await org.api(org.users.member2, "POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
    expect(read.body).toMatchObject({ result: "success" });
    await watchUnreadCounts(b.page, "stream", stream);

    await menuItem(b.page, second, "Mark as unread from here");

    await waitForUnreadCountShown(b.page, "stream", 2);
    await poll(async () => [await flagsOf(org.users.member2, ids[0]!), await flagsOf(org.users.member2, ids[1]!), await flagsOf(org.users.member2, ids[2]!)].map((f) => f.includes("read"))).toEqual([true, false, false]);
  });

  it("read receipts: the server's refusal while they are off; once on, B is listed after B read the message", async () => {
    const content = unique("who saw the notice ");
    const { ids, a, b } = await topicWithMessages(content);

    await menuItem(a.page, content, "View read receipts");
    let dialog = a.page.getByRole("dialog", { name: "Read receipts" });
    await visible(dialog.getByRole("alert").getByText("Read receipts are disabled in this organization."));
    await dialog.getByRole("button", { name: "Close" }).click();

    await realmSettings({ enable_read_receipts: true });
    try {
      await org.api(org.users.member2, "POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
      await menuItem(a.page, content, "View read receipts");
      dialog = a.page.getByRole("dialog", { name: "Read receipts" });
      await visible(dialog.getByRole("listitem").getByText(b.fullName, { exact: true }));
    } finally {
      await realmSettings({ enable_read_receipts: false });
    }
  });

  it("Quote and reply puts Zulip's quote block into compose; Copy link to message gives a link that opens the view at it", async () => {
    const content = unique("low tide at noon ");
    const { ids, a, b, streamId, stream, topic } = await topicWithMessages(content);
    const shown = content;

    await action(b.page, shown, "Message actions").click();
    await visible(b.page.getByRole("menu", { name: "Message actions" }));
    await saveScreenshot(b.page, "message-actions-menu");
    await b.page.getByRole("menuitem", { name: "Quote and reply", exact: true }).click();

    const origin = await b.page.evaluate(() => location.origin);
    const link = `${origin}/#narrow/channel/${streamId}-${stream}/topic/${topic}/near/${ids[0]}`;
    const expected = `@_**${a.fullName}|${a.id}** [said](${link}):\n\`\`\`quote\n${content}\n\`\`\`\n`;
    await poll(() => composeBox(b.page).message.inputValue()).toBe(expected);

    // Copy link to message: the clipboard holds the same link, and following it opens the topic at the message.
    await b.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    await menuItem(b.page, shown, "Copy link to message");
    await visible(b.page.getByRole("status").getByText("Link copied."));
    expect(await b.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await goToHash(a.page, "#feed");
    await goToHash(a.page, new URL(link).hash);
    await visible(a.page.locator(`article[data-message-id="${ids[0]}"][aria-current="true"]`));
  });
});
