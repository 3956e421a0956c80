import { beforeAll, describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import {
  createStream,
  linkNamed,
  messageText,
  newContext,
  openCompose,
  sendStreamMessage,
  seriousViolations,
  signInForm,
  unique,
  useBrowser,
  visible,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

const stream = unique("commons");
const contents = [unique("Welcome, everyone "), unique("**Agenda**: `lunch` at noon ")];

beforeAll(async () => {
  await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
  for (const content of contents) await sendStreamMessage(org, org.users.owner, stream, "meeting", content);
});

describe("accessibility (axe-core): no serious or critical violation", () => {
  it("on the sign-in page", async () => {
    const context = await newContext(browsers.browser(), org.url);
    try {
      const page = await context.newPage();
      await page.goto("/");
      await visible(signInForm(page).logIn);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("on the feed with messages", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await visible(messageText(page, contents[0]));
    await visible(page.getByText("Agenda"));
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("with the compose box open", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await linkNamed(page, stream).first().click();
    await openCompose(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
