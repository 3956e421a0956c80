import { decodeHtmlEntities } from "./html-markdown.js";

/**
 * A message's rendered HTML as the plain text a phone shows (Zulip's
 * `get_mobile_push_content`, `zerver/lib/push_notifications.py`), for the
 * payloads of `push-message-payload.ts`.
 *
 * The HTML is our own renderer's sanitized output (`shared/markdown/`), so
 * a small tokenizer suffices (no HTML parser ships in the Lambdas' bundles):
 * tags, text and comments, void elements, closing tags matched to the
 * nearest open element of that name. The tree keeps lxml's shape — an
 * element's `text` before its first child and each child's `tail` after it
 * — because Zulip's rules are written in those terms (an emoji's or a
 * quote's own text is replaced, their children's tails are kept).
 */

interface Element {
  tag: string;
  attrs: Map<string, string>;
  /** Text before the first child (lxml's `text`). */
  text: string;
  children: Element[];
  /** Text after the element, up to its next sibling (lxml's `tail`). */
  tail: string;
}

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const TOKEN = /<!--[\s\S]*?-->|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|[^<]+|</g;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function parseAttrs(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of text.matchAll(ATTR)) attrs.set(m[1]!.toLowerCase(), decodeHtmlEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  return attrs;
}

/** The fragment as a root element (Zulip's `fragment_fromstring(..., create_parent=True)`). */
function parseFragment(html: string): Element {
  const root: Element = { tag: "div", attrs: new Map(), text: "", children: [], tail: "" };
  const stack: Element[] = [root];
  const addText = (text: string) => {
    const parent = stack.at(-1)!;
    const last = parent.children.at(-1);
    if (last) last.tail += text;
    else parent.text += text;
  };
  for (const m of html.matchAll(TOKEN)) {
    const [whole, closing, opening, attrText] = m;
    if (whole.startsWith("<!--")) continue;
    if (closing !== undefined) {
      const tag = closing.toLowerCase();
      for (let at = stack.length - 1; at > 0; at--) {
        if (stack[at]!.tag === tag) {
          stack.length = at;
          break;
        }
      }
      continue;
    }
    if (opening !== undefined) {
      const el: Element = { tag: opening.toLowerCase(), attrs: parseAttrs(attrText ?? ""), text: "", children: [], tail: "" };
      stack.at(-1)!.children.push(el);
      if (!VOID.has(el.tag) && !whole.endsWith("/>")) stack.push(el);
      continue;
    }
    addText(decodeHtmlEntities(whole));
  }
  return root;
}

function classes(el: Element): string {
  return el.attrs.get("class") ?? "";
}

function descendants(el: Element): Element[] {
  return el.children.flatMap((c) => [c, ...descendants(c)]);
}

/** Text content of an element, tails of its children included. */
function textContent(el: Element): string {
  return el.text + el.children.map((c) => textContent(c) + c.tail).join("");
}

/** Zulip's `hex_codepoint_to_emoji`: `1f1fa-1f1f8` → 🇺🇸. */
function emojiOfCode(code: string): string | undefined {
  const points = code.split("-").map((h) => Number.parseInt(h, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return undefined;
  return String.fromCodePoint(...points);
}

/** An element's own text as Zulip reads it: emoji as their character, images as their alt text, a quote's leading text dropped. */
function ownText(el: Element): string {
  const cls = classes(el);
  if (cls.includes("emoji")) {
    const code = /emoji-(\S+)/.exec(cls)?.[1];
    const emoji = code !== undefined ? emojiOfCode(code) : undefined;
    if (emoji !== undefined) return emoji;
  }
  if (el.tag === "img") return el.attrs.get("alt") ?? "";
  if (el.tag === "blockquote") return "";
  return el.text;
}

function asQuote(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.length > 0)
    .map((line) => `> ${line}\n`)
    .join("");
}

/** An ordered list numbered from its `start`, nested lists indented two spaces per level. */
function orderedList(el: Element, depth: number): string {
  let counter = Number.parseInt(el.attrs.get("start") ?? "", 10);
  if (!Number.isFinite(counter)) counter = 1;
  const indent = depth > 0 ? `\n${"  ".repeat(depth)}` : "";
  return el.children.map((li) => `${indent}${counter++}. ${process(li, depth + 1, false).trim()}`).join("\n");
}

/** A spoiler shows its header and hides the rest: `Header (…)` (or `(…)` without one). */
function spoiler(el: Element, depth: number): string {
  const header = descendants(el).find((d) => classes(d).split(/\s+/).includes("spoiler-header"));
  const text = header ? process(header, depth, false).trim() : "";
  return text.length === 0 ? "(…)\n" : `${text} (…)\n`;
}

/**
 * One element as text, with its tail unless `withTail` is false.
 * @param depth how many ordered lists enclose it (for nested numbering)
 */
function process(el: Element, depth: number, withTail = true): string {
  if (el.tag === "span" && classes(el) === "katex") {
    // Zulip's `change_katex_to_raw_latex`: math is sent as its LaTeX source.
    const source = descendants(el).find((d) => d.tag === "annotation" && d.attrs.get("encoding") === "application/x-tex");
    return `$$${source ? textContent(source) : ""}$$${withTail ? el.tail : ""}`;
  }
  // Zulip drops the tail of lists and spoilers; we keep a list's (else the next paragraph runs into its last item)
  // and, as Zulip, drop a spoiler's (its text already ends with a newline).
  if (el.tag === "ol") return orderedList(el, depth) + (withTail ? el.tail : "");
  if (classes(el).split(/\s+/).includes("spoiler-block")) return spoiler(el, depth);
  let sub = el.children.map((c) => process(c, depth)).join("");
  if (el.tag === "blockquote") sub = asQuote(sub);
  return ownText(el) + sub + (withTail ? el.tail : "");
}

/**
 * Zulip's `get_mobile_push_content`: rendered HTML as plain text — emoji as
 * their Unicode character (custom emoji and other images as their alt
 * text), quotes as `> ` lines, ordered lists numbered, a spoiler as its
 * header and ` (…)`, KaTeX as its LaTeX source between `$$`, mentions,
 * stream and plain links as their text.
 */
export function mobilePushContent(renderedContent: string): string {
  return process(parseFragment(renderedContent), 0, false);
}

/** Characters of a notification's text before it is cut (Zulip's `truncate_content`). */
export const MAX_PUSH_CONTENT_CHARS = 200;

/**
 * Zulip's `truncate_content`: at most {@link MAX_PUSH_CONTENT_CHARS} Unicode
 * code points (Python's `len`), then `…` (one character instead of three dots).
 * @returns the text and whether it was cut
 */
export function truncatePushContent(content: string): { content: string; truncated: boolean } {
  const points = Array.from(content);
  if (points.length <= MAX_PUSH_CONTENT_CHARS) return { content, truncated: false };
  return { content: `${points.slice(0, MAX_PUSH_CONTENT_CHARS).join("")}…`, truncated: true };
}
