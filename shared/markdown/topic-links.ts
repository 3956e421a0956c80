/**
 * Zulip's `topic_links`: apart from the renderer (`render.ts`), so that
 * sending and moving messages find a topic's links without loading
 * micromark (`load.ts`).
 */
/** A bare URL in a topic name: `https?://…` or `www.…`, ending before trailing punctuation. */
const TOPIC_URL = /(?<![^\s'"(,:<])(?:https?:\/\/|www\.)[^\s<>"]+/gi;

/**
 * Zulip's `topic_links` for a topic name: the URLs in it, in order, as
 * `{text, url}` (text as typed; `www.…` gets `https://` in `url`, as Zulip
 * does). Realms have no linkifiers in this version, so only bare URLs are found.
 *
 * @see https://zulip.com/api/get-messages (topic_links)
 */
export function topicLinks(topic: string): { text: string; url: string }[] {
  const links: { text: string; url: string }[] = [];
  for (const match of topic.matchAll(TOPIC_URL)) {
    const text = trimUrlPunctuation(match[0]);
    if (/^www\.$/i.test(text) || /^https?:\/\/$/i.test(text)) continue;
    links.push({ text, url: /^https?:\/\//i.test(text) ? text : `https://${text}` });
  }
  return links;
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
