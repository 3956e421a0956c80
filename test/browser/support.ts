/**
 * What every browser test file shares: one Chromium per file (launched in
 * `beforeAll`, closed in `afterAll`), people signed in through the sign-in
 * form in contexts of their own (closed after each test), and API calls that
 * set up what a test reads (streams, messages) as other people would.
 *
 * Each file also gets its own organization on a local stack serving the
 * built web app (`useTestOrg`, started in the `browser` project's global
 * setup, which builds `web/dist` first when it is missing or stale).
 */
import { fileURLToPath } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { TestUser } from "../support/api-client.js";
import type { TestOrg } from "../support/local-stack.js";
import { launchChromium, signIn, type Person } from "../../scripts/browser/chromium.js";

export * from "../../scripts/browser/chromium.js";

/** Opens browsers for a test file: see {@link useBrowser}. */
export interface BrowserHarness {
  /**
   * A person signed in as `user` at the organization's site, in a browser
   * context of their own (cookies apart from everyone else's), on the page
   * the app shows after signing in (the combined feed).
   */
  newPerson(org: TestOrg, user: TestUser, options?: { viewport?: { width: number; height: number } }): Promise<Person>;
  /** The file's browser, for pages that sign nobody in (the sign-in page itself). */
  browser(): Browser;
}

/** Launches Chromium for the file and closes every person's context after each test. */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  const people: Person[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const person of people.splice(0)) await person.context.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
  });
  const started = () => {
    if (!browser) throw new Error("useBrowser(): Chromium starts in beforeAll; call newPerson inside a test");
    return browser;
  };
  return {
    async newPerson(org, user, options = {}) {
      const person = await signIn(started(), org.url, user, options);
      people.push(person);
      return person;
    },
    browser: started,
  };
}

/** Creates a stream (as `creator`) with these subscribers; resolves with its ID. */
export async function createStream(org: TestOrg, creator: TestUser, name: string, subscribers: TestUser[]): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name }],
    principals: subscribers.map((u) => u.id),
  });
  expect(res.body).toMatchObject({ result: "success" });
  const id = await org.api(creator, "GET", "/get_stream_id", { stream: name });
  expect(id.body).toMatchObject({ result: "success" });
  return id.body.stream_id as number;
}

/** Sends a stream message through the API; resolves with its ID. */
export async function sendStreamMessage(org: TestOrg, sender: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const res = await org.api(sender, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

/** Sends a direct message through the API; resolves with its ID. */
export async function sendDirectMessage(org: TestOrg, sender: TestUser, to: TestUser[], content: string): Promise<number> {
  const res = await org.api(sender, "POST", "/messages", { type: "direct", to: to.map((u) => u.id), content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

/** A name no other test uses, so that text and link lookups find only this test's things. */
export function unique(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Saves the page as `docs/images/web-<name>.png` for docs/web.md when the run
 * asks for pictures (`WEB_SCREENSHOTS=1`); otherwise does nothing, so test runs
 * leave the tree as it was.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.WEB_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: fileURLToPath(new URL(`../../docs/images/web-${name}.png`, import.meta.url)) });
}

/** The serious and critical axe-core violations of the page as it is now, one line each (rule, impact, elements). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
