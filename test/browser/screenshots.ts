/**
 * `npm run screenshots:web`: pictures of the web app's main screens for
 * docs/web.md, written to `docs/images/web-*.png`.
 *
 * Starts a local stack of its own (its own DynamoDB Local, in memory),
 * seeds the test organization and a short conversation, builds the web app
 * when stale, and signs in through the sign-in form in Chromium
 * (`CHROMIUM_PATH`, else /usr/bin/chromium). Not a test: nothing is asserted
 * beyond the screens appearing.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { startLocalStack } from "../../infra/local/stack.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { call } from "../support/api-client.js";
import { seedTestOrg, TEST_PASSWORD_HASH_LOG2_N } from "../support/test-org.js";
import { composeBox, launchChromium, linkNamed, messageText, newContext, openCompose, signIn, signInForm, visible } from "../../scripts/browser/chromium.js";
import { ensureWebBuild } from "../../scripts/web-build.js";

const outDir = fileURLToPath(new URL("../../docs/images/", import.meta.url));

/** A short conversation with the Markdown people write every day. */
const CONVERSATION: { from: "owner" | "member" | "member2"; topic: string; content: string }[] = [
  { from: "owner", topic: "release plan", content: "Release candidate is up. Notes in the **changelog**; please try it today." },
  { from: "member", topic: "release plan", content: "Tried it on staging:\n```ts\nconst ok = await deploy({ stage: \"staging\" });\n```\nAll green :tada:" },
  { from: "member2", topic: "release plan", content: "> All green\n\nSame here. @**Olivia Owner** shall we ship on Thursday?" },
  { from: "owner", topic: "release plan", content: "Thursday it is." },
  { from: "member2", topic: "lunch", content: "Noodles at 12:30?\n\n| Who | Order |\n|---|---|\n| Mia | ramen |\n| Max | dumplings |" },
];

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(outDir, `web-${name}.png`);
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
}

async function main(): Promise<void> {
  await ensureWebBuild();
  mkdirSync(outDir, { recursive: true });
  const stack = await startLocalStack({
    env: { LOG_LEVEL: "error", RATE_LIMITS: "off", PASSWORD_HASH_LOG2_N: TEST_PASSWORD_HASH_LOG2_N },
  });
  const browser = await launchChromium().catch(async (err) => {
    await stack.stop();
    throw err;
  });
  try {
    const { records } = await seedTestOrg(stack.deps);
    const as = (u: UserRecord) => ({ email: u.delivery_email, apiKey: u.api_key });
    const person = (u: UserRecord) => ({ id: u.user_id, email: u.delivery_email, fullName: u.full_name });
    const stream = "engineering";
    await call(stack.url, as(records.owner), "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: stream, description: "Building and shipping" }],
      principals: [records.owner, records.member, records.member2].map((u) => u.user_id),
    });
    for (const m of CONVERSATION) {
      await call(stack.url, as(records[m.from]), "POST", "/messages", { type: "stream", to: stream, topic: m.topic, content: m.content });
    }
    await call(stack.url, as(records.member2), "POST", "/messages", {
      type: "direct",
      to: [records.member.user_id],
      content: "Can you review my branch after lunch?",
    });
    await stack.drainDeferredWork();

    // The sign-in page, filled in.
    const context = await newContext(browser, stack.url);
    const page = await context.newPage();
    await page.goto("/");
    await signInForm(page).email.fill(records.member.delivery_email);
    await shoot(page, "sign-in");
    await context.close();

    // The combined feed, then a stream's compose box with a draft.
    const desk = await signIn(browser, stack.url, person(records.member));
    await visible(messageText(desk.page, "Thursday it is."));
    await shoot(desk.page, "feed");
    await linkNamed(desk.page, stream).first().click();
    await openCompose(desk.page);
    await composeBox(desk.page).topic.fill("release plan");
    await composeBox(desk.page).message.fill("Shipping Thursday at 10:00. I'll post the **checklist** here.");
    await shoot(desk.page, "compose");
    await desk.context.close();

    // Phone width.
    const phone = await signIn(browser, stack.url, person(records.member), { viewport: { width: 390, height: 844 } });
    await visible(messageText(phone.page, "Thursday it is."));
    await shoot(phone.page, "phone");
    await phone.context.close();
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
