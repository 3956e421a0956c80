/**
 * What the browser adds to a message's server-rendered HTML once it is in the
 * page: the parts Zulip leaves to clients (emoji characters, times in the
 * reader's time zone, spoiler toggles, link targets, the reader's own mentions).
 * Each function is idempotent, so re-running it on the same tree changes nothing.
 */
import { fileNameOf } from "../../model/images.js";
import { emojiFromClass } from "./emoji.js";

/** Options of {@link enhanceRenderedContent}. */
export interface EnhanceOptions {
  /** The reader's user ID: a mention of them (or of everyone) is highlighted. */
  selfUserId?: number;
  /** IANA time zone for `<time>` (default: the browser's). */
  timeZone?: string;
  /** BCP 47 locale for `<time>` (default: the browser's). */
  locale?: string;
}

/** What {@link enhanceRenderedContent} found that needs a stylesheet or code loaded on demand. */
export interface EnhanceResult {
  /** A `div.codehilite` with a language: highlight.js is worth loading. */
  hasCode: boolean;
  /** KaTeX output (`.katex`): its stylesheet is needed. */
  hasMath: boolean;
}

/** Where {@link prepareHtml} parks a `style` attribute until {@link enhanceRenderedContent} applies it. */
const PARKED_STYLE = "data-server-style";

/**
 * Readies the server's HTML for the DOM:
 * - every `<img>` gets `loading="lazy" decoding="async"` (an image starts
 *   loading as soon as it is parsed, so setting it afterwards is too late);
 * - `style` attributes (KaTeX sizes its struts and fraction bars with them)
 *   are parked in `data-server-style`: the page's Content-Security-Policy
 *   (`style-src 'self'`) refuses inline style attributes, but not styles set
 *   through the CSSOM, which {@link enhanceRenderedContent} does.
 *
 * The server escapes `<` in text and code and `"` in attribute values, so
 * each match below lies inside a tag of the server's own markup.
 */
export function prepareHtml(html: string): string {
  return html
    .replace(/<img (?![^>]*\bloading=)/g, '<img loading="lazy" decoding="async" ')
    .replace(/(<[a-zA-Z][^<>]*?\s)style="/g, `$1${PARKED_STYLE}="`);
}

/**
 * A `<time datetime>`'s instant in the reader's zone, with the weekday, as
 * Zulip's web app shows a global time (`Thu, Jan 4, 2024, 3:00 PM`).
 * @param iso the `datetime` attribute (ISO 8601, `…Z`)
 * @returns null when the attribute is not a date
 * @see https://zulip.com/help/global-times
 */
export function formatTimestamp(iso: string, timeZone?: string, locale?: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  }).format(date);
}

/** Whether an `href` stays inside the app (a `#narrow/…` link): it navigates in place. */
export function isInAppLink(href: string): boolean {
  return href.startsWith("#");
}

/**
 * Post-processes a message body in place (see the module comment).
 * @param root the element holding the server's HTML (`.rendered_markdown`)
 */
export function enhanceRenderedContent(root: HTMLElement, options: EnhanceOptions = {}): EnhanceResult {
  for (const el of root.querySelectorAll<HTMLElement | SVGElement>(`[${PARKED_STYLE}]`)) {
    el.style.cssText = el.getAttribute(PARKED_STYLE) ?? "";
    el.removeAttribute(PARKED_STYLE);
  }
  for (const span of root.querySelectorAll<HTMLElement>("span.emoji")) {
    const char = emojiFromClass(span.className);
    if (char !== null && span.textContent !== char) span.textContent = char;
  }
  for (const time of root.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
    const shown = formatTimestamp(time.dateTime, options.timeZone, options.locale);
    if (shown === null) continue;
    // The text as typed (`<time:…>`) stays reachable as the tooltip.
    if (!time.title) time.title = `Original text: ${time.textContent ?? ""}`;
    time.textContent = shown;
  }
  for (const header of root.querySelectorAll<HTMLElement>(".spoiler-header")) {
    header.setAttribute("role", "button");
    header.tabIndex = 0;
    const open = header.parentElement?.classList.contains("spoiler-open") ?? false;
    header.setAttribute("aria-expanded", String(open));
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    if (isInAppLink(link.getAttribute("href") ?? "")) continue;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  for (const img of root.querySelectorAll<HTMLImageElement>(".message_inline_image img")) {
    img.loading = "lazy";
    img.decoding = "async";
    // The server's previews carry no alt text: the link's title (its Markdown text) or the file's name names them.
    const link = img.closest("a");
    if (!img.hasAttribute("alt")) img.alt = link?.title || fileNameOf(link?.getAttribute("href") ?? "");
  }
  for (const mention of root.querySelectorAll<HTMLElement>(".user-mention, .topic-mention")) {
    const id = mention.dataset.userId;
    const forMe =
      !mention.classList.contains("silent") &&
      (mention.classList.contains("topic-mention") || id === "*" || (options.selfUserId !== undefined && id === String(options.selfUserId)));
    mention.classList.toggle("mention-me", forMe);
  }
  return {
    hasCode: root.querySelector("div.codehilite[data-code-language] code") !== null,
    hasMath: root.querySelector(".katex, .katex-display") !== null,
  };
}

/**
 * Opens or closes the spoiler whose header is `header` (Zulip's spoilers start
 * closed; the header toggles the content).
 * @returns whether the spoiler is open after the toggle
 * @see https://zulip.com/help/spoilers
 */
export function toggleSpoiler(header: HTMLElement): boolean {
  const block = header.closest(".spoiler-block");
  const content = block?.querySelector(":scope > .spoiler-content");
  if (!block || !content) return false;
  const open = block.classList.toggle("spoiler-open");
  header.setAttribute("aria-expanded", String(open));
  content.setAttribute("aria-hidden", String(!open));
  return open;
}
