/**
 * Linkifiers in message rendering: a pass over micromark's events between
 * parsing and compiling that cuts the organization's linkifier matches out
 * of plain text and an HTML extension that writes them as
 * `<a href="URL">text</a>` (Zulip's `LinkifierPattern` through `url_to_a`).
 *
 * Where Zulip applies them (its inline processor runs linkifiers after code,
 * mentions, channel links, Markdown links and bare URLs, and before
 * emphasis, emoji and emoticons): in the text of paragraphs, headings, table
 * cells and emphasis, never inside code, a link's text or destination, a
 * bare URL, a mention or another construct's own text. A match's text is
 * written as typed (escaped; no emoji inside), as Zulip's atomic link text.
 *
 * The boundary rule (`linkifiers.ts`, `prepareLinkifierPattern`) looks at
 * the message source around the text, so `**#12**` is not linkified
 * (Zulip sees `*` before `#`) while `(#12)` is. Differences from Zulip we
 * know of: a match does not span a line break or a tab, and a match across
 * emphasis markers (`foo *bar*` for the pattern `foo bar`) is not found.
 */
import type { CompileContext, Event, HtmlExtension, Point, Token } from "micromark-util-types";
import { escapeHtml } from "../html.js";
import { applyLinkifiers, type CompiledLinkifier, type LinkifierMatch } from "./linkifiers.js";
import { relativizeLocalUrl, sanitizeUrl } from "./url.js";

declare module "micromark-util-types" {
  interface TokenTypeMap {
    /** A linkifier's match (ours): no children; its link is in the render's map. */
    zulipLinkifier: "zulipLinkifier";
  }
}

/** Token type of a linkifier's link. */
const LINKIFIER_TOKEN = "zulipLinkifier";

/** Direct parents whose `data` is text a linkifier applies to. */
const TEXT_PARENTS: ReadonlySet<string> = new Set([
  "paragraph",
  "atxHeadingText",
  "tableContent",
  "emphasisText",
  "strongText",
  "strikethroughText",
  "zulipPlainAttention",
]);

/** A linkifier link to write: its sanitized, relativized href and its text. */
interface LinkifierLink {
  href: string;
  text: string;
}

/** A point `k` code units after `point` within one chunk of text. */
function advance(point: Point, k: number): Point {
  return { ...point, column: point.column + k, offset: point.offset + k, _bufferIndex: point._bufferIndex + k };
}

/**
 * Splits the run of `data` tokens `run` (text `text` starting at `start`)
 * around `matches`. Returns the replacement events, or undefined when the
 * tokens cannot be cut (a tab inside: its text spans several chunks).
 */
function splitRun(
  run: Event[],
  matches: { match: LinkifierMatch; link: LinkifierLink }[],
  links: WeakMap<Token, LinkifierLink>,
): Event[] | undefined {
  const context = run[0][2];
  // One token per piece; every piece must slice back to its text, else give up.
  const tokens: Token[] = [];
  for (let i = 0; i < run.length; i += 2) tokens.push(run[i][1]);
  const runStart = tokens[0].start.offset;
  const out: Event[] = [];
  const pointAt = (offset: number): Point | undefined => {
    const token = tokens.find((t) => offset >= t.start.offset && offset <= t.end.offset);
    if (!token) return undefined;
    if (offset === token.end.offset) return token.end;
    return advance(token.start, offset - token.start.offset);
  };
  const push = (type: string, from: number, to: number, expected: string): boolean => {
    const start = pointAt(runStart + from);
    const end = pointAt(runStart + to);
    if (!start || !end) return false;
    const token: Token = { type: type as "data" | typeof LINKIFIER_TOKEN, start, end };
    if (type === "data" && context.sliceSerialize(token) !== expected) return false;
    if (type === LINKIFIER_TOKEN) {
      const link = matches.find((m) => m.match.start === from)?.link;
      if (!link) return false;
      links.set(token, link);
    }
    out.push(["enter", token, context], ["exit", token, context]);
    return true;
  };
  const text = tokens.map((t) => context.sliceSerialize(t)).join("");
  let at = 0;
  for (const { match } of matches) {
    if (match.start > at && !push("data", at, match.start, text.slice(at, match.start))) return undefined;
    if (!push(LINKIFIER_TOKEN, match.start, match.end, match.text)) return undefined;
    at = match.end;
  }
  if (at < text.length && !push("data", at, text.length, text.slice(at))) return undefined;
  return out;
}

/**
 * Cuts linkifier matches out of the text in `events` (in place). `source`
 * is the normalized message, for the characters around each text run.
 * Matches whose URL `sanitizeUrl` refuses stay text (Zulip's `url_to_a`).
 * @param links receives each linkifier token's link, for {@link linkifierHtml}
 */
export function linkifyEvents(
  events: Event[],
  source: string,
  linkifiers: readonly CompiledLinkifier[],
  realmUrl: string,
  links: WeakMap<Token, LinkifierLink>,
): void {
  if (linkifiers.length === 0) return;
  const stack: string[] = [];
  let linkDepth = 0;
  for (let i = 0; i < events.length; i++) {
    const [kind, token] = events[i];
    if (kind === "exit") {
      stack.pop();
      if (token.type === "link") linkDepth--;
      continue;
    }
    if (token.type === "link") linkDepth++;
    if (token.type !== "data" || linkDepth > 0 || !TEXT_PARENTS.has(stack[stack.length - 1] ?? "")) {
      stack.push(token.type);
      continue;
    }
    // A run of adjacent `data` tokens: one stretch of plain text.
    let end = i;
    while (events[end + 2]?.[0] === "enter" && events[end + 2][1].type === "data") end += 2;
    const run = events.slice(i, end + 2);
    const context = run[0][2];
    const first = run[0][1];
    const last = run[run.length - 1][1];
    const text = run.filter(([k]) => k === "enter").map(([, t]) => context.sliceSerialize(t)).join("");
    const found = applyLinkifiers(linkifiers, text, {
      before: source[first.start.offset - 1],
      after: source[last.end.offset],
    }).flatMap((match) => {
      const sanitized = sanitizeUrl(match.url);
      return sanitized === undefined ? [] : [{ match, link: { href: relativizeLocalUrl(sanitized, realmUrl), text: match.text } }];
    });
    const replacement = found.length > 0 ? splitRun(run, found, links) : undefined;
    if (replacement) events.splice(i, run.length, ...replacement);
    // Continue after the run (its events are balanced: the stack is unchanged).
    i += (replacement ?? run).length - 1;
  }
}

/** HTML for linkifier tokens: `<a href="…">text</a>`; notes that the message has a link. */
export function linkifierHtml(links: WeakMap<Token, LinkifierLink>, noteLink: () => void): HtmlExtension {
  return {
    exit: {
      zulipLinkifier(this: CompileContext, token: Token) {
        const link = links.get(token);
        if (!link) return;
        noteLink();
        this.tag(`<a href="${escapeHtml(link.href)}">`);
        // Text escapes `&`, `<` and `>` only, as everywhere in Zulip's text (quotes stay as typed).
        this.raw(link.text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
        this.tag("</a>");
      },
    },
  };
}
