/**
 * Zulip's auto-links for bare domains without a scheme or `www.`
 * (`example.com`, `t.co`, `goo.gl/abc`, `ucl.ac.uk`), linked to `http://…`.
 *
 * Zulip's rule (its web-link pattern): the link starts at the start of the
 * text, after whitespace or after one of `'"(,:<`; it is one or more
 * `[\w-]+.` labels and a top-level domain from IANA's list (minus a few file
 * extensions people type: `java`, `md`, `mov`, `py`, `zip`; matched as
 * typed, so lower case only), then optionally a `/` path of anything but
 * whitespace, `"` and unbalanced parentheses (nesting up to 7 deep); and it
 * must be followed only by punctuation `!:;?),.'">` up to whitespace or the
 * end. The path is as short as that allows (`goo.gl/a).` links `goo.gl/a`).
 * We also accept `*` and `~` around the link, which Zulip sees only after it
 * has already taken `**…**` / `~~…~~` apart.
 *
 * `http(s)://…`, `www.…` and emails stay GFM's autolink literals. The TLD
 * list is the `tlds` npm package (IANA's list, like the Python `tlds`
 * package Zulip uses).
 *
 * @see https://zulip.com/help/format-your-message-using-markdown#links
 */
import tlds from "tlds/index.json" with { type: "json" };
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types";
import { isLineEnding, isSpaceOrTab } from "./codes.js";

/** TLDs Zulip leaves out because they are common file extensions. */
const FILE_EXTENSION_TLDS = new Set(["java", "md", "mov", "py", "zip"]);
const TLDS: ReadonlySet<string> = new Set((tlds as string[]).filter((tld) => !FILE_EXTENSION_TLDS.has(tld)));

/** Longest run we examine (no message needs a longer bare link; bounds the work per word). */
const MAX_CANDIDATE = 2048;
/** Parentheses nest this deep at most in a path (Zulip's pattern unrolls 7 levels). */
const MAX_PAREN_DEPTH = 7;

const DOMAIN = /^(?:[\p{L}\p{N}_-]+\.)+([\p{L}\p{N}_-]+)/u;
/** What may follow the link up to whitespace or the end (Zulip's list plus `*` and `~`). */
const TRAILING = new Set([..."!:;?),.'\">*~"]);
/** What may come just before the link (Zulip's list plus `*` and `~`). */
const BEFORE = new Set([..."'\"(,:<*~"].map((ch) => ch.charCodeAt(0)));

function isWhitespace(code: Code): boolean {
  return code === null || isLineEnding(code) || isSpaceOrTab(code) || /\s/u.test(String.fromCharCode(code));
}

/** Whether a bare link may start after `code` (the previous character; `null` at the start). */
function allowedBefore(code: Code): boolean {
  return isWhitespace(code) || BEFORE.has(code as number);
}

/**
 * Length (UTF-16 units) of the bare-domain link at the start of `text`, a
 * run of non-whitespace characters that reaches whitespace or the end; 0 if
 * there is none.
 */
export function bareDomainLinkLength(text: string): number {
  if (/^www\./i.test(text)) return 0; // GFM's www autolink
  const domain = DOMAIN.exec(text);
  if (!domain || !TLDS.has(domain[1])) return 0;
  const domainEnd = domain[0].length;
  // Where the trailing punctuation begins: the link must end at or after it.
  let trailingStart = text.length;
  while (trailingStart > 0 && TRAILING.has(text[trailingStart - 1])) trailingStart--;
  if (trailingStart <= domainEnd) return trailingStart === domainEnd ? domainEnd : 0;
  if (text[domainEnd] !== "/") return 0;
  // The path: the shortest end at or after `trailingStart` with balanced parentheses.
  let depth = 0;
  for (let i = domainEnd + 1; i <= text.length; i++) {
    if (i >= trailingStart && depth === 0) return i;
    const ch = text[i];
    if (ch === undefined || ch === '"') return 0;
    if (ch === "(") {
      if (++depth > MAX_PAREN_DEPTH) return 0;
    } else if (ch === ")") {
      if (depth === 0) return 0;
      depth--;
    }
  }
  return 0;
}

/** Reads the run of non-whitespace characters ahead and measures the link in it. */
function tokenizeMeasure(measured: (length: number) => void) {
  return function (this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let text = "";
    const more = (code: Code): State | undefined => {
      if (isWhitespace(code) || code! < 0 || text.length >= MAX_CANDIDATE) {
        effects.exit("zulipBareLink");
        const length = bareDomainLinkLength(text);
        measured(length);
        return length > 0 ? ok(code) : nok(code);
      }
      text += String.fromCharCode(code!);
      effects.consume(code);
      return more;
    };
    return (code: Code) => {
      effects.enter("zulipBareLink");
      return more(code);
    };
  };
}

function tokenizeBareDomain(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let length = 0;
  let taken = 0;
  const measure: Construct = { partial: true, tokenize: tokenizeMeasure((n) => (length = n)) };

  const take = (code: Code): State | undefined => {
    if (taken === length) {
      effects.exit("zulipBareLink");
      return ok(code);
    }
    taken++;
    effects.consume(code);
    return take;
  };

  return (code: Code) => {
    if (!allowedBefore(this.previous)) return nok(code);
    return effects.check(
      measure,
      (next: Code) => {
        effects.enter("zulipBareLink");
        return take(next);
      },
      nok,
    )(code);
  };
}

const bareDomain: Construct = { name: "zulipBareDomain", tokenize: tokenizeBareDomain, previous: allowedBefore };

const text: Record<number, Construct> = {};
for (const [from, to] of [
  [48, 57],
  [65, 90],
  [97, 122],
]) {
  for (let code = from; code <= to; code++) text[code] = bareDomain;
}

/**
 * Syntax extension linking bare domains (tokens `zulipBareLink`; the HTML is
 * in `core-html.ts`, which links them to `http://` + the text).
 */
export const bareDomainSyntax: Extension = { text };
