/**
 * Zulip's `topic_links`: apart from the renderer (`render.ts`), so that
 * sending and moving messages find a topic's links without loading
 * micromark (`load.ts`).
 */
import type { Linkifier } from "./linkifiers.js";

/** A bare URL in a topic name: `https?://…` or `www.…`, ending before trailing punctuation. */
const TOPIC_URL = /(?<![^\s'"(,:<])(?:https?:\/\/|www\.)[^\s<>"]+/gi;

/**
 * Zulip's `topic_links` for a topic name: the organization's linkifier
 * matches and the URLs in it, as `{text, url}` in position order (text as
 * typed; `www.…` gets `https://` in `url`, as Zulip does). Overlaps are
 * settled by precedence: each linkifier in the organization's order (its
 * matches left to right), then URLs; a candidate overlapping one already
 * kept is dropped. Linkifier URLs are the expanded templates, not sanitized
 * (clients escape them, as Zulip documents). The linkifier engine
 * (`linkifiers.ts` with `re2js`, about 150 KiB) is loaded only when the
 * organization has linkifiers, so sending stays out of its cold start.
 *
 * @param linkifiers the organization's linkifiers in order (none: only URLs)
 * @see https://zulip.com/api/get-messages (topic_links)
 */
export async function topicLinks(topic: string, linkifiers: readonly Linkifier[] = []): Promise<{ text: string; url: string }[]> {
  const candidates: { index: number; text: string; url: string }[] = [];
  if (linkifiers.length > 0) {
    const { compileLinkifiers, linkifierMatches } = await import("./linkifiers.js");
    for (const linkifier of compileLinkifiers(linkifiers)) {
      for (const m of linkifierMatches(linkifier, topic)) candidates.push({ index: m.start, text: m.text, url: m.url });
    }
  }
  candidates.push(...topicUrlCandidates(topic));
  const kept: typeof candidates = [];
  for (const c of candidates) {
    if (kept.every((k) => c.index + c.text.length <= k.index || k.index + k.text.length <= c.index)) kept.push(c);
  }
  return kept.sort((x, y) => x.index - y.index).map(({ text, url }) => ({ text, url }));
}

/**
 * Zulip's `topic_links` for an organization without linkifiers: the URLs in
 * a topic name, in position order, as {@link topicLinks} gives them.
 */
export function topicUrlLinks(topic: string): { text: string; url: string }[] {
  return topicUrlCandidates(topic).map(({ text, url }) => ({ text, url }));
}

/** The bare URLs of a topic name with their positions (`www.…` gets `https://` in `url`). */
function topicUrlCandidates(topic: string): { index: number; text: string; url: string }[] {
  const found: { index: number; text: string; url: string }[] = [];
  for (const match of topic.matchAll(TOPIC_URL)) {
    const text = trimUrlPunctuation(match[0]);
    if (/^www\.$/i.test(text) || /^https?:\/\/$/i.test(text)) continue;
    found.push({ index: match.index, text, url: /^https?:\/\//i.test(text) ? text : `https://${text}` });
  }
  return found;
}

/** Drops trailing punctuation that ends a sentence rather than the URL; keeps balanced `)`. */
function trimUrlPunctuation(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (/[.,;:!?'"]/.test(last)) {
      end--;
      continue;
    }
    if (last === ")") {
      const slice = url.slice(0, end);
      const opens = slice.split("(").length - 1;
      const closes = slice.split(")").length - 1;
      if (closes > opens) {
        end--;
        continue;
      }
    }
    return url.slice(0, end);
  }
}
