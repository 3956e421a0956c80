import pMap from "p-map";
import type { ElementHandle, Page, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, linkNamed, messageText, sendStreamMessage, unique, useBrowser, visible, WAIT_MS } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** Messages in the stream: more than one page of history, so reading back needs several fetches. */
const COUNT = 300;
const stream = unique("logbook");
const label = (i: number) => `entry ${String(i).padStart(4, "0")} of ${stream}`;
const PATTERN = new RegExp(`^entry (\\d{4}) of ${stream}$`);

/** The ID of entry 1, the stream's first message. */
let firstId = 0;

beforeAll(async () => {
  const streamId = await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
  // IDs follow the order of sending: one sender at a time keeps entry N older than entry N+1.
  [firstId] = await pMap(Array.from({ length: COUNT }, (_, i) => i + 1), (i) => sendStreamMessage(org, org.users.owner, stream, "days", label(i)), {
    concurrency: 1,
  });
  // Read, so that the narrow opens at the newest message (an unread one would be the anchor).
  const read = await org.api(org.users.member, "POST", "/mark_stream_as_read", { stream_id: streamId });
  expect(read.body).toMatchObject({ result: "success" });
}, 600_000);

/** An entry of the feed and where it is (the top of its paragraph, in CSS pixels from the top of the scrolling box). */
interface Entry {
  n: number;
  top: number;
}

/**
 * The scrolling box of the feed: the nearest ancestor of an entry that
 * scrolls, or the page's own scrolling element.
 */
async function feedBox(page: Page): Promise<ElementHandle<Element>> {
  const handle = await page.evaluateHandle((source) => {
    const pattern = new RegExp(source);
    let box: Element | null = [...document.querySelectorAll("p")].find((p) => pattern.test((p.textContent ?? "").trim())) ?? null;
    while (box && !(box.scrollHeight > box.clientHeight && /(auto|scroll)/.test(getComputedStyle(box).overflowY))) {
      box = box.parentElement;
    }
    return box ?? document.scrollingElement ?? document.documentElement;
  }, PATTERN.source);
  return handle as ElementHandle<Element>;
}

/** The second rendered entry from the top of the box's visible part, and the box's content height. */
async function measure(box: ElementHandle<Element>): Promise<{ entry: Entry; scrollHeight: number }> {
  return box.evaluate((el, source) => {
    const pattern = new RegExp(source);
    const isPage = el === document.scrollingElement;
    const rect = el.getBoundingClientRect();
    const [top, bottom] = isPage ? [0, window.innerHeight] : [Math.max(0, rect.top), Math.min(window.innerHeight, rect.bottom)];
    const origin = isPage ? 0 : rect.top;
    const shown: Entry[] = [];
    for (const p of document.querySelectorAll("p")) {
      const m = pattern.exec((p.textContent ?? "").trim());
      const at = p.getBoundingClientRect().top;
      if (m && at >= top && at < bottom) shown.push({ n: Number(m[1]), top: at - origin });
    }
    shown.sort((x, y) => x.top - y.top);
    if (shown.length === 0) throw new Error("no entry of the stream is in view");
    // The second one: the first loaded message loses its stream/topic header when older messages of the same
    // topic come in above it (its row changes); the text after it must not move.
    return { entry: shown[1] ?? shown[0], scrollHeight: el.scrollHeight };
  }, PATTERN.source);
}

describe("reading back through history", () => {
  it("scrolling up loads older messages page by page (anchored at the oldest loaded one) until the first, without moving the view", async () => {
    const { page } = await browsers.newPerson(org, org.users.member);
    await linkNamed(page, stream).first().click();
    await visible(messageText(page, label(COUNT)));
    const first = messageText(page, label(1));
    expect(await first.count()).toBe(0);
    const box = await feedBox(page);

    // Hold every further fetch of messages until the view has been measured, then let it through.
    const held: { route: Route; url: URL }[] = [];
    let wake: () => void = () => undefined;
    const isMessages = (url: URL) => url.pathname === "/json/messages";
    await page.route(isMessages, async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      held.push({ route, url: new URL(route.request().url()) });
      wake();
    });
    /** Resolves with what happened first after reaching the top: a fetch of older messages, the first message, or neither. */
    const next = async (): Promise<"fetch" | "first" | "timeout"> => {
      if (held.length > 0) return "fetch";
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        new Promise<"fetch">((resolve) => (wake = () => resolve("fetch"))),
        first.waitFor({ state: "attached", timeout: WAIT_MS }).then(() => "first" as const, () => "timeout" as const),
        new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), WAIT_MS))),
      ]);
      clearTimeout(timer);
      wake = () => undefined;
      return outcome;
    };

    const anchors: number[] = [];
    for (;;) {
      if (held.length === 0) {
        await box.evaluate((el) => (el.scrollTop = 0));
        const outcome = await next();
        if (outcome === "first") break;
        expect(outcome, "at the top, no older messages were fetched and the first message is not shown").toBe("fetch");
      }
      const { route, url } = held.shift()!;
      expect(Number(url.searchParams.get("num_before"))).toBeGreaterThan(0);
      expect(url.searchParams.get("anchor")).toMatch(/^\d+$/);
      anchors.push(Number(url.searchParams.get("anchor")));
      if (Number(url.searchParams.get("anchor")) === firstId) {
        // Asking for what is before the first message (the list did not learn it had the oldest): nothing to add.
        await route.continue();
        continue;
      }

      // Measure the view while the older page is held, then let it through.
      const before = await measure(box);
      await route.continue();

      // Once the older page is in (the content grew above), the entry that was on top is where it was in the box
      // (a status line above the box may move the box itself; the reader's place in the list must not move).
      const settled = await page
        .waitForFunction(
          ({ el, source, before }) => {
            const pattern = new RegExp(source);
            const entry = [...document.querySelectorAll("p")].find((p) => Number(pattern.exec((p.textContent ?? "").trim())?.[1]) === before.entry.n);
            const origin = el === document.scrollingElement ? 0 : el.getBoundingClientRect().top;
            return el.scrollHeight > before.scrollHeight && entry !== undefined && Math.abs(entry.getBoundingClientRect().top - origin - before.entry.top) <= 2;
          },
          { el: box, source: PATTERN.source, before },
          { timeout: WAIT_MS },
        )
        .then(() => true, () => false);
      if (!settled) {
        // Say what the reader sees instead: where that entry went, and whether the older page came in at all.
        const now = await box.evaluate(
          (el, { source, n }) => {
            const pattern = new RegExp(source);
            const entry = [...document.querySelectorAll("p")].find((p) => Number(pattern.exec((p.textContent ?? "").trim())?.[1]) === n);
            const origin = el === document.scrollingElement ? 0 : el.getBoundingClientRect().top;
            return { scrollHeight: el.scrollHeight, entryTop: entry ? entry.getBoundingClientRect().top - origin : null };
          },
          { source: PATTERN.source, n: before.entry.n },
        );
        expect({ grew: now.scrollHeight > before.scrollHeight, [`entry ${before.entry.n} top`]: now.entryTop }).toEqual({
          grew: true,
          [`entry ${before.entry.n} top`]: before.entry.top,
        });
      }
      if ((await first.count()) > 0) break;
    }
    await page.unroute(isMessages);
    for (const { route } of held.splice(0)) await route.continue();

    await visible(first);
    // Reading back took fetches, each anchored further back than the one before.
    expect(anchors.length).toBeGreaterThan(0);
    expect([...anchors].sort((x, y) => y - x)).toEqual(anchors);
    expect(new Set(anchors).size).toBe(anchors.length);
  });
});
