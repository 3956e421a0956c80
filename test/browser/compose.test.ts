import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { composeBox, createStream, linkNamed, openCompose, unique, useBrowser, visible, WAIT_MS } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

describe("the compose box", () => {
  it("Preview shows the message as the server renders it (POST /messages/render)", async () => {
    const stream = unique("drafts");
    await createStream(org, org.users.owner, stream, [org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await linkNamed(page, stream).first().click();
    await openCompose(page);
    const word = unique("bold");
    const box = composeBox(page);
    await box.topic.fill("preview");
    await box.message.fill(`**${word}** and \`${word}-code\``);

    const rendered = page.waitForResponse((res) => new URL(res.url()).pathname === "/json/messages/render", { timeout: WAIT_MS });
    await page.getByRole("button", { name: "Preview", exact: true }).click();

    const res = await rendered;
    expect(res.request().method()).toBe("POST");
    expect(await res.json()).toMatchObject({ result: "success", rendered: `<p><strong>${word}</strong> and <code>${word}-code</code></p>` });
    await visible(page.locator("strong", { hasText: word }));
    await visible(page.locator("code", { hasText: `${word}-code` }));
    // Nothing was sent by previewing.
    const sent = await org.api(org.users.member, "GET", "/messages", {
      anchor: "newest",
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: "channel", operand: stream }],
    });
    expect(sent.body.messages).toEqual([]);
  });

  it('"Press Enter to send" changes the enter_sends setting; then Enter sends and Shift+Enter starts a new line', async () => {
    const stream = unique("enter");
    await createStream(org, org.users.owner, stream, [org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await linkNamed(page, stream).first().click();
    await openCompose(page);
    const toggle = page.getByRole("checkbox", { name: "Press Enter to send" });
    await visible(toggle);
    expect(await toggle.isChecked()).toBe(false);
    // A click, not `check()`: the box shows the server's value, which arrives after the PATCH answers,
    // and `check()` fails when the state has not changed at the instant of the click.
    await toggle.click();
    // Stored on the server: the box then follows the setting from the user_settings event.
    await expect
      .poll(async () => {
        const res = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["user_settings"] });
        return res.body.user_settings?.enter_sends;
      }, { timeout: WAIT_MS })
      .toBe(true);

    const box = composeBox(page);
    await box.topic.fill("keys");
    const first = unique("line one");
    const second = unique("line two");
    await box.message.fill(first);
    await box.message.press("Shift+Enter");
    await box.message.type(second);
    await box.message.press("Enter");
    await expect
      .poll(async () => {
        const res = await org.api(org.users.member, "GET", "/messages", {
          anchor: "newest",
          num_before: 5,
          num_after: 0,
          apply_markdown: false,
          narrow: [{ operator: "channel", operand: stream }],
        });
        return (res.body.messages as { content: string }[]).map((m) => m.content);
      }, { timeout: WAIT_MS })
      .toEqual([`${first}\n${second}`]);
  });
});
