/**
 * Linkifiers (https://zulip.com/help/add-a-custom-linkifier): an
 * organization's patterns that turn matching text into links, in its order.
 *
 * Patterns use RE2's syntax and run on `re2js`, a linear-time engine (no
 * backtracking, no look-around, no back-references), as Zulip's server
 * compiles them with re2: a crafted message cannot make a pattern run away.
 * URL templates are RFC 6570, expanded by `url-template`.
 *
 * Shared by message rendering (`linkifier-events.ts`) and `topic_links`
 * (`topic-links.ts`); pattern and template checks for the API are in
 * `shared/domain/linkifiers.ts`.
 */
import { RE2JS } from "re2js";
import { parseTemplate } from "url-template";

/** A linkifier as the API lists it (https://zulip.com/api/get-linkifiers). */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/** A linkifier ready to match: its pattern wrapped with Zulip's word boundaries. */
export interface CompiledLinkifier {
  regex: RE2JS;
  /** The pattern's own named groups (the template's variables). */
  groups: string[];
  expand: (values: Record<string, string | null>) => string;
}

/** One match of a linkifier in a text: `[start, end)` in UTF-16 code units, the matched text and its URL (unsanitized). */
export interface LinkifierMatch {
  start: number;
  end: number;
  text: string;
  url: string;
}

// Zulip's names for the groups around a linkifier's own pattern (`prepare_linkifier_pattern`).
const BEFORE = "linkifier_before_match";
const ACTUAL = "linkifier_actual_match";
const AFTER = "linkifier_after_match";

/**
 * Zulip's `prepare_linkifier_pattern`: a match starts at the start of the
 * text or after white space (`\pZ`, NEL) or one of `'"(,:<`, and ends at the
 * end of the text or before a character that is not a letter or digit.
 */
export function prepareLinkifierPattern(source: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<${ACTUAL}>${source})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/** Compiled linkifiers by pattern and template; bounded so a long-lived process does not grow without end. */
const cache = new Map<string, CompiledLinkifier | null>();
const CACHE_LIMIT = 1000;

/**
 * Compiles one linkifier, cached per process. A pattern that does not
 * compile once wrapped (a group named like Zulip's own) matches nothing, as
 * in Zulip's `LinkifierPattern`.
 * @returns undefined when the wrapped pattern does not compile
 */
export function compileLinkifier(pattern: string, urlTemplate: string): CompiledLinkifier | undefined {
  const key = `${pattern}\u0000${urlTemplate}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  let compiled: CompiledLinkifier | null;
  try {
    const regex = RE2JS.compile(prepareLinkifierPattern(pattern));
    const template = parseTemplate(urlTemplate);
    const groups = Object.keys(regex.namedGroups()).filter((g) => g !== BEFORE && g !== ACTUAL && g !== AFTER);
    compiled = { regex, groups, expand: (values) => template.expand(values) };
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled ?? undefined;
}

/** The organization's linkifiers in order, compiled; those that do not compile are left out. */
export function compileLinkifiers(linkifiers: readonly Linkifier[]): CompiledLinkifier[] {
  return linkifiers.flatMap((l) => compileLinkifier(l.pattern, l.url_template) ?? []);
}

/**
 * Every match of one linkifier in `text`, left to right, not overlapping:
 * after a match the search resumes at its end (the character after it may
 * start the next one), as Zulip's inline processor and `topic_links` do.
 * `context` widens the boundary checks past the text: the character just
 * before and after it in the message (a match at the text's edge must be
 * preceded/followed by an allowed one), or none at the message's edges.
 */
export function linkifierMatches(
  linkifier: CompiledLinkifier,
  text: string,
  context: { before?: string; after?: string } = {},
): LinkifierMatch[] {
  const before = context.before ?? "";
  const subject = before + text + (context.after ?? "");
  const limit = before.length + text.length;
  const matcher = linkifier.regex.matcher(subject);
  const out: LinkifierMatch[] = [];
  let from = 0;
  while (from <= subject.length && matcher.find(from)) {
    const start = matcher.start(ACTUAL);
    const end = matcher.end(ACTUAL);
    // The boundary characters outside `text` only qualify a match; the match itself stays inside.
    if (start < before.length || end > limit) {
      from = Math.max(matcher.start() + 1, from + 1);
      if (start >= limit) break;
      continue;
    }
    const values: Record<string, string | null> = {};
    for (const g of linkifier.groups) values[g] = matcher.group(g);
    out.push({ start: start - before.length, end: end - before.length, text: subject.slice(start, end), url: linkifier.expand(values) });
    // Resume at the match's end: the character after it may begin the next match.
    from = end > start ? end : end + 1;
  }
  return out;
}

/**
 * The matches of the organization's linkifiers in `text` as a message
 * renders them: each linkifier in order finds its matches in what earlier
 * ones left (a match overlapping an earlier linkifier's is dropped), as
 * Zulip's Markdown applies linkifiers one after another and never inside an
 * earlier one's link. Sorted by position.
 */
export function applyLinkifiers(
  linkifiers: readonly CompiledLinkifier[],
  text: string,
  context: { before?: string; after?: string } = {},
): LinkifierMatch[] {
  const taken: LinkifierMatch[] = [];
  for (const linkifier of linkifiers) {
    for (const m of linkifierMatches(linkifier, text, context)) {
      if (!taken.some((t) => m.start < t.end && t.start < m.end)) taken.push(m);
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
