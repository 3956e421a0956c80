import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes } from "../e2e/image-upload-helpers.js";
import { uploadFile } from "../e2e/uploads-helpers.js";
import {
  composeBox,
  createStream,
  gone,
  goToHash,
  linkNamed,
  openCompose,
  saveScreenshot,
  seriousViolations,
  unique,
  useBrowser,
  visible,
  WAIT_MS,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** The caller's uploads on the server (`GET /attachments`). */
async function attachments(user: TestUser): Promise<{ id: number; name: string; size: number; messages: { id: number }[] }[]> {
  const res = await org.api(user, "GET", "/attachments");
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.attachments;
}

/** Opens the stream's narrow and its compose box, with the topic filled in. */
async function composeIn(page: Page, stream: string, topic: string): Promise<void> {
  await linkNamed(page, stream).first().click();
  await openCompose(page);
  await composeBox(page).topic.fill(topic);
}

/** The compose box's hidden file input (behind "Upload files"). */
const fileInput = (page: Page) => page.locator('.compose input[type="file"]');

/** Hands files to the page as a drop or a paste would: `target` is a CSS selector, `kind` the event. */
async function dispatchFiles(page: Page, selector: string, kind: "drop" | "paste", files: { name: string; type: string; text: string }[]) {
  await page.evaluate(
    ({ selector, kind, files }) => {
      const data = new DataTransfer();
      for (const f of files) data.items.add(new File([f.text], f.name, { type: f.type }));
      const target = document.querySelector(selector)!;
      const event =
        kind === "drop"
          ? new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: data })
          : new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: data });
      target.dispatchEvent(event);
    },
    { selector, kind, files },
  );
}

describe("files in the web app", () => {
  it("uploads images with the button, shows progress, sends; the other person sees the previews live and browses them in the lightbox", async () => {
    const { member, owner } = org.users;
    const stream = unique("pictures");
    await createStream(org, owner, stream, [member, owner]);
    const a = await browsers.newPerson(org, member);
    const b = await browsers.newPerson(org, owner);
    await linkNamed(b.page, stream).first().click();
    await composeIn(a.page, stream, "holiday");

    // Hold the upload at the network so its progress bar and placeholder can be seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await a.page.route("**/json/user_uploads", async (route) => {
      await held;
      await route.continue();
    });
    const box = composeBox(a.page);
    await box.message.fill("Look:");
    await visible(a.page.getByRole("button", { name: "Upload files", exact: true }));
    await fileInput(a.page).setInputFiles([
      { name: "cat.png", mimeType: "image/png", buffer: Buffer.from(await pngBytes(640, 480, "#cc6633")) },
      { name: "dog.png", mimeType: "image/png", buffer: Buffer.from(await pngBytes(320, 240, "#3366cc")) },
    ]);
    await visible(a.page.getByRole("progressbar", { name: "Uploading cat.png…" }));
    await visible(a.page.getByRole("progressbar", { name: "Uploading dog.png…" }));
    expect(await box.message.inputValue()).toBe("Look:\n[Uploading cat.png…]()\n[Uploading dog.png…]()\n");
    expect(await box.send.isDisabled()).toBe(true);
    expect(await a.page.getByRole("button", { name: "Cancel", exact: true }).count()).toBe(2);
    await saveScreenshot(a.page, "upload-progress");

    release();
    await expect
      .poll(() => box.message.inputValue(), { timeout: WAIT_MS })
      .toMatch(/^Look:\n\[cat\.png\]\(\/user_uploads\/\d+\/[^)]+\/cat\.png\)\n\[dog\.png\]\(\/user_uploads\/\d+\/[^)]+\/dog\.png\)\n$/);
    await gone(a.page.getByRole("progressbar"));
    expect(await box.send.isDisabled()).toBe(false);
    await a.page.unroute("**/json/user_uploads");
    await box.send.click();

    // B sees both previews arrive live.
    const row = b.page.getByRole("article", { name: `Message from ${member.fullName}` }).filter({ hasText: "Look:" });
    const previews = row.locator(".message_inline_image a");
    await expect.poll(() => previews.count(), { timeout: WAIT_MS }).toBe(2);
    // On the server: both files are now linked from the message.
    const mine = await attachments(member);
    expect(mine.filter((f) => f.name === "cat.png" || f.name === "dog.png").map((f) => f.messages.length)).toEqual([1, 1]);

    await previews.first().click();
    const dialog = b.page.getByRole("dialog", { name: "cat.png" });
    await visible(dialog);
    await visible(dialog.getByText(`Shared by ${member.fullName}`, { exact: false }));
    const download = dialog.getByRole("link", { name: "Download" });
    expect(await download.getAttribute("href")).toMatch(/^\/user_uploads\/download\/\d+\/.+\/cat\.png$/);
    // The full image loads through the session's cookie.
    await expect
      .poll(() => dialog.locator("img.lightbox-image").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: WAIT_MS })
      .toBe(640);
    await saveScreenshot(b.page, "lightbox");

    await b.page.keyboard.press("ArrowRight");
    await visible(b.page.getByRole("dialog", { name: "dog.png" }));
    await b.page.keyboard.press("ArrowLeft");
    await visible(b.page.getByRole("dialog", { name: "cat.png" }));
    await b.page.keyboard.press("Escape");
    await gone(b.page.getByRole("dialog"));
  });

  it("refuses a file over the size limit before uploading, with Zulip's message", async () => {
    const { member } = org.users;
    const stream = unique("big");
    await createStream(org, member, stream, [member]);
    const { page } = await browsers.newPerson(org, member);
    const limit = (await org.api(member, "POST", "/register", { fetch_event_types: ["realm"] })).body.max_file_upload_size_mib as number;
    await composeIn(page, stream, "too big");
    const requests: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/user_uploads")) requests.push(req.url());
    });
    await fileInput(page).setInputFiles({ name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(limit * 1024 * 1024 + 1) });
    await visible(page.getByRole("alert").filter({ hasText: `huge.bin exceeds the maximum file size for attachments (${limit} MB).` }));
    expect(await composeBox(page).message.inputValue()).toBe("");
    expect(requests).toEqual([]);
    expect((await attachments(member)).map((f) => f.name)).not.toContain("huge.bin");
  });

  it("uploads files dropped on the compose box, dropped on the feed (opening compose) and pasted", async () => {
    const { member } = org.users;
    const stream = unique("drops");
    await createStream(org, member, stream, [member]);
    const { page } = await browsers.newPerson(org, member);
    const dropped = unique("dropped") + ".txt";
    const onFeed = unique("feed") + ".txt";
    const pasted = unique("pasted") + ".png";
    await composeIn(page, stream, "drops");
    const box = composeBox(page);

    await dispatchFiles(page, ".compose form", "drop", [{ name: dropped, type: "text/plain", text: "dropped file" }]);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toMatch(new RegExp(`^\\[${dropped.replace(".", "\\.")}\\]\\(/user_uploads/.+\\)\\n$`));

    await dispatchFiles(page, ".compose-textarea", "paste", [{ name: pasted, type: "image/png", text: "not really a png" }]);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toContain(`[${pasted}](/user_uploads/`);

    // Closed compose: a drop on the feed opens it and uploads there.
    await box.message.fill("");
    await page.getByRole("button", { name: "Close", exact: true }).click();
    await gone(box.message);
    await dispatchFiles(page, ".app-main", "drop", [{ name: onFeed, type: "text/plain", text: "dropped on the feed" }]);
    await visible(box.message);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toContain(`[${onFeed}](/user_uploads/`);

    const names = (await attachments(member)).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining([dropped, pasted, onFeed]));
  });

  it("Uploaded files lists one's uploads with their size and deletes one after confirming", async () => {
    const { member } = org.users;
    const name = unique("notes") + ".txt";
    await uploadFile(org, member, name, "x".repeat(2500), "text/plain");
    const { page } = await browsers.newPerson(org, member);
    await goToHash(page, "#settings/uploaded-files");
    const section = page.getByRole("region", { name: "Uploaded files" });
    await visible(section);
    const row = section.getByRole("row").filter({ hasText: name });
    await visible(row);
    await visible(row.getByRole("cell", { name: "2.5 KB", exact: true }));
    await visible(section.getByText(/^Organization using /));
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, "uploaded-files");

    // Keyboard: Tab reaches the file's Delete button.
    const del = row.getByRole("button", { name: `Delete ${name}` });
    for (let i = 0; i < 40 && !(await del.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    expect(await del.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete file?" });
    await visible(dialog);
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await gone(dialog);
    await gone(row);
    expect((await attachments(member)).map((f) => f.name)).not.toContain(name);
  });
});
