import { beforeAll, describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import {
  createStream,
  gone,
  linkNamed,
  messageText,
  searchBox,
  sendStreamMessage,
  unique,
  useBrowser,
  visible,
  WAIT_MS,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** A stream with two topics: two messages in each, the word "mango" in one message of each topic. */
const stream = unique("orchard");
const topicA = unique("picking");
const topicB = unique("pruning");
const inA = [unique("ladders ready mango "), unique("baskets ready ")];
const inB = [unique("shears sharp "), unique("mango trees first ")];

beforeAll(async () => {
  await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
  for (const content of inA) await sendStreamMessage(org, org.users.owner, stream, topicA, content);
  for (const content of inB) await sendStreamMessage(org, org.users.owner, stream, topicB, content);
});

describe("narrows", () => {
  it("clicking a topic's link shows only that topic's messages", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await linkNamed(page, stream).first().click();
    for (const content of [...inA, ...inB]) await visible(messageText(page, content));

    await linkNamed(page, topicA).first().click();

    for (const content of inA) await visible(messageText(page, content));
    for (const content of inB) await gone(messageText(page, content));
    await page.waitForFunction((topic) => decodeURIComponent(location.hash).includes(`/topic/${topic}`), topicA, { timeout: WAIT_MS });
  });

  it("an operator query typed into Search shows the matching messages only", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    for (const content of [...inA, ...inB]) await visible(messageText(page, content));

    await searchBox(page).fill(`channel:${stream} mango`);
    await searchBox(page).press("Enter");

    // The words may be highlighted in the results: match the message's text, not one text node.
    const hits = [inA[0], inB[1]];
    for (const content of hits) await visible(page.locator("p", { hasText: content }));
    for (const content of [inA[1], inB[0]]) await gone(page.locator("p", { hasText: content }));
    expect(decodeURIComponent(await page.evaluate(() => location.hash))).toContain("search");
  });

  it("a topic operator in Search narrows to that topic", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    for (const content of [...inA, ...inB]) await visible(messageText(page, content));

    await searchBox(page).fill(`channel:${stream} topic:${topicB}`);
    await searchBox(page).press("Enter");

    for (const content of inB) await visible(page.locator("p", { hasText: content }));
    for (const content of inA) await gone(page.locator("p", { hasText: content }));
  });
});
