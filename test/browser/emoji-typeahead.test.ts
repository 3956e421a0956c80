import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes, sendFiles } from "../e2e/image-upload-helpers.js";
import {
  composeBox,
  createStream,
  gone,
  linkNamed,
  messageText,
  openCompose,
  saveScreenshot,
  sendStreamMessage,
  seriousViolations,
  unique,
  useBrowser,
  visible,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The message's article in the feed, found by its unique text. */
function messageRow(page: Page, content: string) {
  return page.getByRole("article").filter({ has: messageText(page, content) });
}

/** Opens the emoji picker of a message and searches it. */
async function searchPicker(page: Page, content: string, query: string) {
  await messageRow(page, content).getByRole("button", { name: "Add emoji reaction", exact: true }).click();
  const picker = page.getByRole("dialog", { name: "Emoji picker" });
  await picker.getByRole("searchbox", { name: "Search emoji" }).fill(query);
  return picker;
}

/** The message as the server stores it. */
async function stored(id: number) {
  const res = await org.api(org.users.owner, "GET", `/messages/${id}`);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.message as { content: string; reactions: { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[] };
}

describe("emoji reactions from the picker", () => {
  it("A reacts with tada through the picker; B sees it live and adds theirs by clicking it", async () => {
    // Prepare
    const stream = unique("party");
    await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member, org.users.member2]);
    const content = unique("we shipped ");
    const id = await sendStreamMessage(org, org.users.owner, stream, "release", content);
    const a = await browsers.newPerson(org, org.users.member);
    const b = await browsers.newPerson(org, org.users.member2);
    for (const p of [a, b]) {
      await linkNamed(p.page, stream).first().click();
      await visible(messageText(p.page, content));
    }

    // Act: A searches the picker and picks tada.
    const picker = await searchPicker(a.page, content, "tada");
    const tada = picker.getByRole("button", { name: "tada", exact: true });
    await visible(tada);
    await saveScreenshot(a.page, "emoji-picker");
    expect(await seriousViolations(a.page)).toEqual([]);
    await tada.click();

    // Assess: the picker closes; both see the reaction; B's click makes it 2.
    await gone(picker);
    await visible(messageRow(b.page, content).getByRole("button", { name: "tada: 1" }));
    await messageRow(b.page, content).getByRole("button", { name: "tada: 1" }).click();
    await visible(messageRow(a.page, content).getByRole("button", { name: "tada: 2" }));
    expect((await stored(id)).reactions.map((r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]).sort()).toEqual(
      [
        ["tada", "1f389", "unicode_emoji", org.users.member.id],
        ["tada", "1f389", "unicode_emoji", org.users.member2.id],
      ].sort(),
    );
  });

  it("the keyboard works the picker: ↓ into the results, Enter picks, Esc closes and returns to the button", async () => {
    const stream = unique("keys");
    await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
    const content = unique("keyboard reactions ");
    const id = await sendStreamMessage(org, org.users.owner, stream, "keys", content);
    const a = await browsers.newPerson(org, org.users.member);
    await linkNamed(a.page, stream).first().click();
    await visible(messageText(a.page, content));

    // Esc closes, focus back on the button.
    const picker = await searchPicker(a.page, content, "octo");
    await a.page.keyboard.press("Escape");
    await gone(picker);
    await expect.poll(() => a.page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Add emoji reaction");

    // Enter in the search field picks the first result.
    await searchPicker(a.page, content, "octopus");
    await a.page.keyboard.press("ArrowDown");
    await expect.poll(() => a.page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("octopus");
    await a.page.keyboard.press("Enter");
    await visible(messageRow(a.page, content).getByRole("button", { name: "octopus: 1" }));
    expect((await stored(id)).reactions).toMatchObject([{ emoji_name: "octopus", reaction_type: "unicode_emoji" }]);
  });

  it("a custom emoji uploaded through the API shows in the picker live and reacts as an image", async () => {
    // Prepare: A is on the page before the upload, so the emoji must arrive by event.
    const stream = unique("custom");
    await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
    const content = unique("custom emoji please ");
    const id = await sendStreamMessage(org, org.users.owner, stream, "emoji", content);
    const a = await browsers.newPerson(org, org.users.member);
    await linkNamed(a.page, stream).first().click();
    await visible(messageText(a.page, content));
    const name = unique("blob_");
    const upload = await sendFiles(org, org.users.member, "POST", `/realm/emoji/${name}`, [{ name: "e.png", type: "image/png", bytes: await pngBytes(32, 32, "#cc3366") }]);
    expect(upload.body).toMatchObject({ result: "success" });

    // Act
    const picker = await searchPicker(a.page, content, name);
    await picker.getByRole("button", { name, exact: true }).click();

    // Assess
    const reaction = messageRow(a.page, content).getByRole("button", { name: `${name}: 1` });
    await visible(reaction);
    await expect.poll(() => reaction.locator("img").getAttribute("src")).toMatch(/\/user_avatars\/\d+\/emoji\/images\//);
    const [r] = (await stored(id)).reactions;
    expect(r).toMatchObject({ emoji_name: name, reaction_type: "realm_emoji" });
  });
});

describe("compose typeahead", () => {
  it("@Cord + Enter mentions Cordelia, #stream and #stream>topic link, :tad inserts :tada:", async () => {
    // Prepare: a person named Cordelia Lear, a stream with a topic.
    const renamed = await org.api(org.users.owner, "PATCH", `/users/${org.users.moderator.id}`, { full_name: "Cordelia Lear" });
    expect(renamed.body).toMatchObject({ result: "success" });
    const stream = unique("harbor");
    await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member, org.users.moderator]);
    await sendStreamMessage(org, org.users.owner, stream, "arrivals", unique("first "));
    const a = await browsers.newPerson(org, org.users.member);
    await linkNamed(a.page, stream).first().click();
    await openCompose(a.page);
    const box = composeBox(a.page);
    await box.topic.fill("typeahead");
    const suggestions = a.page.getByRole("listbox", { name: "Suggestions" });

    // Act + Assess: each token completes with Enter.
    await box.message.click();
    await box.message.pressSequentially("hello @Cord");
    await visible(suggestions.getByRole("option", { name: /Cordelia Lear/ }));
    await expect.poll(() => box.message.getAttribute("aria-activedescendant")).toBeTruthy();
    await saveScreenshot(a.page, "typeahead");
    expect(await seriousViolations(a.page)).toEqual([]);
    await box.message.press("Enter");
    await expect.poll(() => box.message.inputValue()).toBe("hello @**Cordelia Lear** ");

    await box.message.pressSequentially(`see #${stream.slice(0, 5)}`);
    await visible(suggestions.getByRole("option", { name: stream }));
    await box.message.press("Enter");
    await box.message.pressSequentially(`and #${stream}>arr`);
    await visible(suggestions.getByRole("option", { name: /arrivals/ }));
    await box.message.press("Tab");
    await box.message.pressSequentially(":tad");
    await visible(suggestions.getByRole("option", { name: ":tada:" }));
    await box.message.press("Enter");
    const text = `hello @**Cordelia Lear** see #**${stream}** and #**${stream}>arrivals** :tada: `;
    await expect.poll(() => box.message.inputValue()).toBe(text);
    await box.send.click();

    // The server rendered the mention, the links and the emoji.
    await gone(suggestions.getByRole("option"));
    await expect
      .poll(async () => {
        const res = await org.api(org.users.member, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "channel", operand: stream }] });
        return (res.body.messages as { content: string }[])[0]?.content ?? "";
      })
      .toContain(`data-user-id="${org.users.moderator.id}"`);
    const res = await org.api(org.users.member, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "channel", operand: stream }] });
    const html = (res.body.messages as { content: string }[])[0]!.content;
    expect(html).toContain('class="user-mention"');
    expect(html).toContain("@Cordelia Lear");
    expect(html).toContain('class="stream"');
    expect(html).toContain('class="stream-topic"');
    expect(html).toContain("emoji-1f389");
  });
});
