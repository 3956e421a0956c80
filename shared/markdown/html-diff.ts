import { diffArrays } from "diff";

/**
 * The `content_html_diff` of an edit-history entry (Zulip's
 * `highlight_html_differences`, zerver/lib/html_diff.py): the new
 * rendering, with the text it gained wrapped in
 * `<span class="highlight_text_inserted">` and the text it lost put back
 * in place inside `<span class="highlight_text_deleted">`. Only text is
 * ever marked: tags are compared as whole tokens and the output keeps the
 * new rendering's tags, so it stays well-formed HTML.
 *
 * The word diff itself is the `diff` package's (jsdiff) `diffArrays` over
 * tokens: tags, runs of whitespace, and words.
 */

const TOKEN = /<[^>]*>|\s+|[^<\s]+/g;

function tokens(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (token: string) => token.startsWith("<");

/** Wraps the text tokens of a run in a span, leaving any tags in it outside. */
function mark(run: string[], cls: string, keepTags: boolean): string {
  let out = "";
  let text = "";
  const flush = () => {
    // Whitespace around the changed words stays outside the mark.
    const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
    out += core ? `${lead}<span class="${cls}">${core}</span>${trail}` : text;
    text = "";
  };
  for (const token of run) {
    if (isTag(token)) {
      flush();
      if (keepTags) out += token;
    } else text += token;
  }
  flush();
  return out;
}

/**
 * @param before the older rendered HTML (our renderer's output, so tags never contain `>` in attributes unescaped)
 * @param after the newer rendered HTML
 * @returns `after` with the differences marked; `after` itself when nothing differs
 */
export function highlightHtmlDifferences(before: string, after: string): string {
  if (before === after) return after;
  const parts = diffArrays(tokens(before), tokens(after));
  let out = "";
  let removed: string[] = [];
  let added: string[] = [];
  const flushChange = () => {
    out += mark(removed, "highlight_text_deleted", false) + mark(added, "highlight_text_inserted", true);
    removed = [];
    added = [];
  };
  parts.forEach((part, i) => {
    if (part.removed) removed.push(...part.value);
    else if (part.added) added.push(...part.value);
    else if (
      // Mere spaces between two changes belong to the change (semantic
      // clean-up, as Zulip's diff-match-patch does): "a b" → "c d" reads as
      // one replacement, not two interleaved ones.
      part.value.every((t) => /^\s+$/.test(t)) &&
      (removed.length > 0 || added.length > 0) &&
      i + 1 < parts.length
    ) {
      removed.push(...part.value);
      added.push(...part.value);
    } else {
      flushChange();
      out += part.value.join("");
    }
  });
  flushChange();
  return out;
}
