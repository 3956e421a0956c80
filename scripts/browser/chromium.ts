/**
 * Driving the web app in Debian's `chromium` with playwright-core: the
 * launch, signing in through the sign-in form, and waits that never depend
 * on the machine's speed (each one polls for a state with a generous
 * timeout, never sleeps a fixed time). Plain functions, without vitest, so
 * the screenshot script uses them too; `support.ts` adds the test hooks.
 *
 * Everything is found by accessible name, as a person with a screen reader
 * finds it: "Email", "Password", "Log in", "Message", "Topic", "Send",
 * "Search", and stream, topic and conversation links by their text.
 */
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";

/** How long any single wait may take (ms): far above what a loaded 2-core machine needs. */
export const WAIT_MS = 30_000;

/** The browser binary: `CHROMIUM_PATH`, else Debian's `chromium` package. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

/**
 * Flags for a headless Chromium that talks to nothing but the test stack:
 * no sandbox (CI runs as root in a container), no GPU, no QUIC, and none of
 * the background traffic (updates, sync, field trials) a first run makes.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches Chromium. playwright-core gives every launch a fresh temporary
 * profile (user-data dir) and removes it on close; two contexts of one
 * browser share nothing (cookies, storage), so they are two people.
 * @throws Error naming `CHROMIUM_PATH` when the binary is missing
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  } catch (err) {
    throw new Error(
      `could not start Chromium at ${executablePath} (install Debian's chromium package, or set CHROMIUM_PATH): ${String(err)}`,
    );
  }
}

/**
 * A fresh browser context (no cookies, no storage) on the site, with the
 * waits' timeout. Functions passed to `page.evaluate` are sent as source
 * text; the TypeScript transform (esbuild's keepNames, as tsx runs it) may
 * wrap their inner functions in a `__name` call, defined here for the page.
 */
export async function newContext(
  browser: Browser,
  siteUrl: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: siteUrl, viewport });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  return context;
}

/** Someone signed in to the web app in a browser context of their own. */
export interface Person {
  context: BrowserContext;
  page: Page;
  email: string;
  fullName: string;
  id: number;
}

/** The password the test organization gives a user (see `seedTestOrg` and `useTestOrg().createUser`). */
export function passwordOf(email: string): string {
  return email === "owner@test.example" ? "owner-password" : `${email}-password`;
}

/** The sign-in form's fields and button. */
export function signInForm(page: Page) {
  return {
    email: page.getByLabel("Email", { exact: true }),
    password: page.getByLabel("Password", { exact: true }),
    logIn: page.getByRole("button", { name: "Log in", exact: true }),
  };
}

/** The search box, present on every screen of the signed-in app. */
export function searchBox(page: Page): Locator {
  return page.getByLabel("Search", { exact: true });
}

/**
 * Opens the site root in a new browser context and signs in through the
 * sign-in form; resolves once the app shows its signed-in screen (the
 * search box) and the sign-in form is gone.
 * @param options.password the user's password (default {@link passwordOf})
 */
export async function signIn(
  browser: Browser,
  siteUrl: string,
  user: { id: number; email: string; fullName: string },
  options: { viewport?: { width: number; height: number }; password?: string } = {},
): Promise<Person> {
  const context = await newContext(browser, siteUrl, options.viewport);
  const page = await context.newPage();
  await page.goto("/");
  const form = signInForm(page);
  await form.email.fill(user.email);
  await form.password.fill(options.password ?? passwordOf(user.email));
  await form.logIn.click();
  // Attached, not visible: at phone width the search box may sit behind a button.
  await searchBox(page).waitFor({ state: "attached", timeout: WAIT_MS });
  await gone(form.password);
  return { context, page, email: user.email, fullName: user.fullName, id: user.id };
}

/** Waits until the locator's (first) element is visible. */
export async function visible(locator: Locator, timeout = WAIT_MS): Promise<void> {
  await locator.first().waitFor({ state: "visible", timeout });
}

/** Waits until no element of the locator is visible (each is hidden or out of the page). */
export async function gone(locator: Locator, timeout = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    let shown: Locator | undefined;
    for (const el of await locator.all()) {
      if (await el.isVisible()) {
        shown = el;
        break;
      }
    }
    if (!shown) return;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`still visible after ${timeout} ms: ${locator}`);
    await shown.waitFor({ state: "hidden", timeout: left });
  }
}

/** A message's text in the feed (its paragraph), by its unique content. */
export function messageText(page: Page, content: string): Locator {
  return page.getByText(content, { exact: true });
}

/**
 * The sidebar link of a stream, topic or conversation, by its text (the
 * accessible name may go on with an unread count, so it matches as a prefix).
 */
export function linkNamed(page: Page, name: string): Locator {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByRole("link", { name: new RegExp(`^\\s*${escaped}\\b`) });
}

/**
 * Records every unread count the page shows for the links whose text starts
 * with `name`, from now on (a MutationObserver on the whole document), under
 * `key`. A count is the number the link (or its list item, when the count
 * sits beside the link) shows after the name; no number counts as 0. Counts
 * can go up and back down quickly (a message becomes read as it is seen),
 * so tests ask whether a count was ever shown, not what it is at one moment.
 */
export async function watchUnreadCounts(page: Page, key: string, name: string): Promise<void> {
  await page.evaluate(
    ({ key, name }) => {
      const w = window as unknown as { __unreadSeen?: Record<string, number[]> };
      const seen = ((w.__unreadSeen ??= {})[key] = [] as number[]);
      const read = () => {
        for (const link of document.querySelectorAll<HTMLElement>("a, [role=link]")) {
          const text = (link.textContent ?? "").trim();
          if (!text.startsWith(name)) continue;
          const item = link.closest("li");
          // The count inside the link, else in its list item but outside any nested list (a stream's topics).
          let rest = text.slice(name.length);
          if (!/\d/.test(rest) && item) {
            const own = [...item.childNodes].filter((n) => !(n instanceof HTMLElement && /^(UL|OL)$/.test(n.tagName)));
            rest = own.map((n) => n.textContent ?? "").join(" ").replace(name, "");
          }
          const m = /\d+/.exec(rest);
          const count = m ? Number(m[0]) : 0;
          if (seen.at(-1) !== count) seen.push(count);
        }
      };
      read();
      new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { key, name },
  );
}

/** Waits until the counts recorded by {@link watchUnreadCounts} under `key` include `count`. */
export async function waitForUnreadCountShown(page: Page, key: string, count: number, timeout = WAIT_MS): Promise<void> {
  await page.waitForFunction(
    ({ key, count }) =>
      ((window as unknown as { __unreadSeen?: Record<string, number[]> }).__unreadSeen?.[key] ?? []).includes(count),
    { key, count },
    { timeout },
  );
}

/** The counts recorded under `key` so far, in the order shown. */
export async function unreadCountsShown(page: Page, key: string): Promise<number[]> {
  return page.evaluate((key) => (window as unknown as { __unreadSeen?: Record<string, number[]> }).__unreadSeen?.[key] ?? [], key);
}

/** Navigates within the app by its URL hash (`#narrow/...`), as a link would. */
export async function goToHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

/** Zulip's hash of a direct-message conversation with one person: `#narrow/dm/<id>-<name>`. */
export function dmHash(user: { id: number; fullName: string }): string {
  return `#narrow/dm/${user.id}-${encodeURIComponent(user.fullName.replace(/\s+/g, "-"))}`;
}

/** The compose box's fields and buttons. */
export function composeBox(page: Page) {
  return {
    message: page.getByRole("textbox", { name: "Message", exact: true }),
    topic: page.getByRole("textbox", { name: "Topic", exact: true }),
    send: page.getByRole("button", { name: "Send", exact: true }),
  };
}

/**
 * Opens the compose box for the current narrow unless it is open already:
 * with its "Start new conversation" button, or Zulip's `c` shortcut where
 * the page shows no such button.
 */
export async function openCompose(page: Page): Promise<void> {
  const box = composeBox(page);
  if (await box.message.isVisible()) return;
  const start = page.getByRole("button", { name: "Start new conversation", exact: true });
  if (await start.isVisible()) {
    await start.click();
  } else {
    // Shortcuts act when no field has the focus.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("c");
  }
  await visible(box.message);
}

/**
 * Writes and sends a message from the compose box of the current narrow
 * (`topic` fills the Topic field when the narrow is a stream), and waits
 * until it shows in the feed.
 */
export async function sendFromCompose(page: Page, content: string, topic?: string): Promise<void> {
  await openCompose(page);
  const box = composeBox(page);
  if (topic !== undefined) await box.topic.fill(topic);
  await box.message.fill(content);
  await box.send.click();
  await visible(messageText(page, content));
}
