import { MAX_TERM_LENGTH } from "../data/search-index.js";

/**
 * Keyword search rules shared by the indexer (deferred `index_message`
 * job) and the `search` narrow operator, so that both see the same terms.
 *
 * A term is a maximal run of Unicode letters and digits, lower-cased, cut to
 * {@link MAX_TERM_LENGTH} characters. There is no stemming and no stop-word
 * list (Zulip's PostgreSQL search has both): a message matches when it
 * contains every search term as a whole word, in its topic or its Markdown
 * source, case-insensitively.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased terms of a text, in order of appearance, duplicates kept. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) out.push(m[0].slice(0, MAX_TERM_LENGTH));
  return out;
}

/** The distinct terms indexed for a message: its topic's and its Markdown source's. */
export function messageTerms(topic: string, content: string): string[] {
  return [...new Set([...tokenize(topic), ...tokenize(content)])];
}

/** Distinct terms of a `search` operand (several `search` terms of one narrow are joined first, as Zulip does). */
export function searchTerms(operand: string): string[] {
  return [...new Set(tokenize(operand))];
}

/** Whether a message contains every term (an empty term list matches nothing, like an empty tsquery). */
export function matchesSearch(terms: readonly string[], topic: string, content: string): boolean {
  if (terms.length === 0) return false;
  const have = new Set(messageTerms(topic, content));
  return terms.every((t) => have.has(t));
}

/**
 * The search term a posting-list query should start from: the longest one,
 * as a cheap stand-in for "the rarest" (long words are rarely common words),
 * without keeping per-term counters.
 */
export function drivingTerm(terms: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const t of terms) if (best === undefined || t.length > best.length) best = t;
  return best;
}

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_END = "</span>";

/**
 * Wraps every whole-word occurrence of a search term in
 * `<span class="highlight">` — in text only: never inside a tag (attribute
 * values such as link URLs stay intact) and never inside a character
 * reference such as `&amp;`. This is what `match_content` (on rendered HTML)
 * and `match_subject` (on the HTML-escaped topic) carry.
 * @param html HTML text (rendered content, or an escaped topic)
 */
export function highlightHtml(html: string, terms: readonly string[]): string {
  const wanted = new Set(terms);
  if (wanted.size === 0) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith("<")) return part;
      return part.replace(/(&[#a-zA-Z0-9]+;)|([\p{L}\p{N}]+)/gu, (whole, entity: string | undefined, word: string | undefined) => {
        if (entity || !word) return whole;
        return wanted.has(word.toLowerCase().slice(0, MAX_TERM_LENGTH)) ? `${HIGHLIGHT_START}${word}${HIGHLIGHT_END}` : word;
      });
    })
    .join("");
}
