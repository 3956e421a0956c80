import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useTestOrg } from "../support/local-stack.js";
import {
  composeBox,
  createStream,
  goToHash,
  gone,
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

/** A `datetime-local` value `days` from now at `hour`:00, in the page's time zone. */
function localInput(page: Page, days: number, hour: number): Promise<string> {
  return page.evaluate(
    ({ days, hour }) => {
      const d = new Date();
      d.setDate(d.getDate() + days);
      d.setHours(hour, 0, 0, 0);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    },
    { days, hour },
  );
}

type Scheduled = { scheduled_message_id: number; content: string; scheduled_delivery_timestamp: number; topic?: string };
async function scheduledOnServer(): Promise<Scheduled[]> {
  const res = await org.api(org.users.member, "GET", "/scheduled_messages");
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.scheduled_messages as Scheduled[];
}

type DraftOnServer = { id: number; content: string; topic: string };
/** The member's drafts whose text contains `tag` (other tests leave drafts of their own). */
async function draftsOnServer(tag: string): Promise<DraftOnServer[]> {
  const res = await org.api(org.users.member, "GET", "/drafts");
  expect(res.body).toMatchObject({ result: "success" });
  return (res.body.drafts as DraftOnServer[]).filter((d) => d.content.includes(tag));
}

/** Opens a stream's topic in the page and the compose box there. */
async function openTopic(page: Page, stream: string, topic: string): Promise<void> {
  await linkNamed(page, stream).first().click();
  await openCompose(page);
  await composeBox(page).topic.fill(topic);
}

describe("scheduled messages", () => {
  it("schedules from compose for a custom time, lists it in #scheduled, edits, reschedules and deletes it", async () => {
    // Prepare
    const stream = unique("plans");
    await createStream(org, org.users.owner, stream, [org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await openTopic(page, stream, "later");
    const content = unique("see you tomorrow ");
    await composeBox(page).message.fill(content);

    // Act: Schedule message → custom time tomorrow 10:00.
    await page.getByRole("button", { name: "Schedule message", exact: true }).click();
    await page.getByLabel("Custom time").fill(await localInput(page, 1, 10));
    await page.getByRole("button", { name: "Schedule", exact: true }).click();

    // Assess: the notice, the box emptied, the server holds it; nothing was sent.
    await visible(page.getByText(/Your message has been scheduled for/));
    await expect.poll(async () => (await scheduledOnServer()).map((m) => m.content), { timeout: WAIT_MS }).toEqual([content]);
    expect(await composeBox(page).message.inputValue()).toBe("");

    // A preset schedules too (the first offered, always in the future).
    await composeBox(page).message.fill(`${content} (preset)`);
    await page.getByRole("button", { name: "Schedule message", exact: true }).click();
    await page.getByRole("menuitem").first().click();
    await expect.poll(async () => (await scheduledOnServer()).length, { timeout: WAIT_MS }).toBe(2);

    // The list, from the link in the notice.
    await page.getByRole("link", { name: "View scheduled messages" }).click();
    const list = page.getByRole("region", { name: "Scheduled messages" });
    await visible(list.getByText(content, { exact: true }));
    const item = list.getByRole("listitem", { name: `Scheduled message to #${stream} > later` }).filter({ hasText: `${content} (preset)` });
    await visible(item);
    await saveScreenshot(page, "scheduled-messages");
    expect(await seriousViolations(page)).toEqual([]);

    // Edit: into the compose box; saving changes it on the server.
    const first = (await scheduledOnServer()).find((m) => m.content === content)!;
    await list.getByRole("listitem").filter({ has: page.getByText(content, { exact: true }) }).getByRole("button", { name: "Edit" }).click();
    await gone(list);
    const box = composeBox(page);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toBe(content);
    await box.message.fill(`${content} edited`);
    await page.getByRole("button", { name: "Save scheduled message" }).click();
    await expect
      .poll(async () => (await scheduledOnServer()).find((m) => m.scheduled_message_id === first.scheduled_message_id)?.content, { timeout: WAIT_MS })
      .toBe(`${content} edited`);

    // Reschedule to the day after tomorrow at 11:00.
    await goToHash(page, "#scheduled");
    const edited = list.getByRole("listitem").filter({ has: page.getByText(`${content} edited`, { exact: true }) });
    await edited.getByRole("button", { name: "Reschedule" }).click();
    const dialog = page.getByRole("dialog", { name: "Reschedule message" });
    const newTime = await localInput(page, 2, 11);
    await dialog.getByLabel("New time").fill(newTime);
    await dialog.getByRole("button", { name: "Reschedule", exact: true }).click();
    await gone(dialog);
    const expected = await page.evaluate((v) => Math.floor(new Date(v).getTime() / 1000), newTime);
    await expect
      .poll(async () => (await scheduledOnServer()).find((m) => m.scheduled_message_id === first.scheduled_message_id)?.scheduled_delivery_timestamp, {
        timeout: WAIT_MS,
      })
      .toBe(expected);

    // Delete both: the list empties live.
    for (const left of [1, 0]) {
      await list.getByRole("button", { name: "Delete" }).first().click();
      await expect.poll(async () => (await scheduledOnServer()).length, { timeout: WAIT_MS }).toBe(left);
    }
    await visible(list.getByText("No scheduled messages."));
  });

  it("shows the server's refusal of a time in the past, and keeps the text", async () => {
    const stream = unique("past");
    await createStream(org, org.users.owner, stream, [org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await openTopic(page, stream, "yesterday");
    const content = unique("too late ");
    await composeBox(page).message.fill(content);
    await page.getByRole("button", { name: "Schedule message", exact: true }).click();
    await page.getByLabel("Custom time").fill(await localInput(page, -1, 10));
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await visible(page.getByRole("region", { name: "Compose" }).getByRole("alert").filter({ hasText: "Scheduled delivery time must be in the future." }));
    expect(await composeBox(page).message.inputValue()).toBe(content);
    expect(await scheduledOnServer()).toEqual([]);
  });
});

describe("drafts", () => {
  it("saves a draft as one types, restores it when compose opens there again, lists it in #drafts, restores and deletes it", async () => {
    // Prepare
    const stream = unique("notes");
    await createStream(org, org.users.owner, stream, [org.users.member]);
    const { page } = await browsers.newPerson(org, org.users.member);
    await openTopic(page, stream, "ideas");
    const content = unique("half a thought ");
    const box = composeBox(page);

    // Act: type, then close the box.
    await box.message.fill(content);
    await expect.poll(async () => (await draftsOnServer(content)).map((d) => [d.content, d.topic]), { timeout: WAIT_MS }).toEqual([[content, "ideas"]]);
    await page.getByRole("region", { name: "Compose" }).getByRole("button", { name: "Close" }).click();
    await gone(box.message);

    // Assess: reopening in the same conversation brings it back.
    await page.getByRole("button", { name: "Start new conversation" }).click();
    await visible(box.message);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toBe(content);
    await box.message.fill(`${content} more`);
    await expect.poll(async () => (await draftsOnServer(content)).map((d) => d.content), { timeout: WAIT_MS }).toEqual([`${content} more`]);
    await page.getByRole("region", { name: "Compose" }).getByRole("button", { name: "Close" }).click();

    // The list: one draft, restored into its conversation.
    await goToHash(page, "#feed");
    await linkNamed(page, "Drafts").click();
    const list = page.getByRole("region", { name: "Drafts" });
    const item = list.getByRole("listitem", { name: `Draft to #${stream} > ideas` });
    await visible(item.getByText(`${content} more`));
    await saveScreenshot(page, "drafts");
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByRole("button", { name: "Restore" }).click();
    await gone(list);
    await expect.poll(() => box.message.inputValue(), { timeout: WAIT_MS }).toBe(`${content} more`);
    expect(await box.topic.inputValue()).toBe("ideas");

    // Sending it deletes the draft.
    await box.send.click();
    await visible(page.getByText(`${content} more`, { exact: true }));
    await expect.poll(async () => (await draftsOnServer(content)).length, { timeout: WAIT_MS }).toBe(0);

    // Another draft, deleted from the list.
    await openCompose(page);
    await box.message.fill(`${content} again`);
    await expect.poll(async () => (await draftsOnServer(content)).length, { timeout: WAIT_MS }).toBe(1);
    await page.getByRole("region", { name: "Compose" }).getByRole("button", { name: "Close" }).click();
    await goToHash(page, "#drafts");
    const again = list.getByRole("listitem").filter({ hasText: `${content} again` });
    await again.getByRole("button", { name: "Delete" }).click();
    await gone(again);
    expect(await draftsOnServer(content)).toEqual([]);
  });
});

describe("polls and to-do lists", () => {
  it("A's poll: B votes and adds an option, and A sees both live", async () => {
    // Prepare
    const stream = unique("lunch");
    await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const a = await browsers.newPerson(org, org.users.member);
    const b = await browsers.newPerson(org, org.users.member2);
    const question = unique("Lunch? ");
    await openTopic(a.page, stream, "today");
    await composeBox(a.page).message.fill(`/poll ${question}\nPizza\nSoup`);
    await composeBox(a.page).send.click();
    const pollA = a.page.getByRole("group", { name: `Poll: ${question}` });
    await visible(pollA);

    // Act: B opens the topic and votes for Pizza, then adds Tacos.
    await goToHash(b.page, streamTopicHash(await streamId(stream), stream, "today"));
    const pollB = b.page.getByRole("group", { name: `Poll: ${question}` });
    await pollB.getByRole("button", { name: "Vote for Pizza (0 votes)" }).click();
    await visible(pollB.getByRole("button", { name: "Vote for Pizza (1 vote)", pressed: true }));
    await pollB.getByRole("textbox", { name: "New option" }).fill("Tacos");
    await pollB.getByRole("button", { name: "Add option" }).click();

    // Assess: A sees the vote, who voted, and the new option, without reloading.
    await visible(pollA.getByRole("button", { name: "Vote for Pizza (1 vote)", pressed: false }));
    await visible(pollA.getByText(`(${org.users.member2.fullName})`));
    await visible(pollA.getByRole("button", { name: "Vote for Tacos (0 votes)" }));
    await pollA.getByRole("button", { name: "Vote for Pizza (1 vote)" }).click();
    await visible(pollB.getByRole("button", { name: "Vote for Pizza (2 votes)" }));
    await saveScreenshot(a.page, "poll");
    expect(await seriousViolations(a.page)).toEqual([]);
  });

  it("A's to-do list: B checks a task and adds one, and A sees both live", async () => {
    const stream = unique("trip");
    await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const a = await browsers.newPerson(org, org.users.member);
    const b = await browsers.newPerson(org, org.users.member2);
    const title = unique("Trip ");
    await openTopic(a.page, stream, "packing");
    await composeBox(a.page).message.fill(`/todo ${title}\nTickets: train\nHotel`);
    await composeBox(a.page).send.click();
    const todoA = a.page.getByRole("group", { name: `To-do list: ${title}` });
    await visible(todoA.getByRole("checkbox", { name: "Tickets: train" }));

    await goToHash(b.page, streamTopicHash(await streamId(stream), stream, "packing"));
    const todoB = b.page.getByRole("group", { name: `To-do list: ${title}` });
    await todoB.getByRole("checkbox", { name: "Tickets: train" }).click();
    await todoB.getByRole("textbox", { name: "New task" }).fill("Sunscreen");
    await todoB.getByRole("button", { name: "Add task" }).click();

    await expect.poll(() => todoA.getByRole("checkbox", { name: "Tickets: train" }).isChecked(), { timeout: WAIT_MS }).toBe(true);
    await visible(todoA.getByRole("checkbox", { name: "Sunscreen" }));
    expect(await todoA.getByRole("checkbox", { name: "Hotel" }).isChecked()).toBe(false);
  });
});

/** Zulip's hash of a topic (names here are plain words: no encoding needed). */
function streamTopicHash(id: number, stream: string, topic: string): string {
  return `#narrow/channel/${id}-${stream}/topic/${topic}`;
}

async function streamId(name: string): Promise<number> {
  const res = await org.api(org.users.owner, "GET", "/get_stream_id", { stream: name });
  return res.body.stream_id as number;
}
