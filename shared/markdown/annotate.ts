/**
 * One pass over micromark's events between parsing and compiling, marking
 * tokens whose HTML depends on where they sit (which an HTML handler cannot
 * see on its own):
 *
 * - mentions inside a block quote (`>` or ```` ```quote ````): Zulip silences
 *   them, so quoting a message does not notify its mentions again;
 * - line endings inside paragraph text (not inside inline code): Zulip's
 *   nl2br renders them as `<br>`;
 * - `**strong**` spanning a line ending: Zulip's inline pattern stops at the
 *   end of a line, so the asterisks stay as typed (tokens retyped as text);
 * - `***x***`: micromark nests `<em><strong>`, Zulip `<strong><em>` (the two
 *   groups' token types are swapped; the HTML handlers only look at types);
 * - links: where an image preview of each goes (after a paragraph whose
 *   direct child the link is, else at the end of the message) and none for
 *   links inside quotes, which Zulip does not preview.
 */
import type { Event, Token } from "micromark-util-types";
import type { RenderState } from "./render-state.js";

/**
 * The tokens of an attention group (`emphasis`/`strong`) entered at `start`:
 * itself, its opening sequence, its text and its closing sequence, and the
 * index of its exit. Undefined when the events do not have that shape.
 */
function attentionGroup(events: readonly Event[], start: number): { end: number; tokens: Token[] } | undefined {
  const group = events[start][1];
  const kind = group.type as string;
  let end = start + 1;
  while (end < events.length && events[end][1] !== group) end++;
  const tokens = [group, events[start + 1]?.[1], events[start + 3]?.[1], events[end - 2]?.[1]];
  const expected = [kind, `${kind}Sequence`, `${kind}Text`, `${kind}Sequence`];
  if (end >= events.length || tokens.some((token, i) => token?.type !== expected[i])) return undefined;
  return { end, tokens };
}

/** Zulip's rules for `**` and `***` (see the module comment); changes token types in place. */
function zulipAttention(events: readonly Event[]): void {
  for (let i = 0; i < events.length; i++) {
    const [kind, token] = events[i];
    if (kind !== "enter" || (token.type !== "strong" && token.type !== "emphasis")) continue;
    const group = attentionGroup(events, i);
    if (!group) continue;
    if (token.type === "strong") {
      const spansLines = events.slice(i, group.end).some(([, inner]) => inner.type === "lineEnding");
      if (spansLines) {
        const [outer, open, text, close] = group.tokens;
        outer.type = "zulipPlainAttention";
        text.type = "zulipPlainAttention";
        open.type = "data";
        close.type = "data";
      }
      continue;
    }
    // `<em>` directly around a `<strong>` covering all of it.
    if (events[i + 4]?.[0] !== "enter" || events[i + 4][1].type !== "strong") continue;
    const inner = attentionGroup(events, i + 4);
    if (!inner || inner.end !== group.end - 4) continue;
    group.tokens.forEach((outerToken, k) => {
      const innerToken = inner.tokens[k];
      [outerToken.type, innerToken.type] = [innerToken.type, outerToken.type];
    });
  }
}

/** Tokens that render a link (`<a href>`) a preview may follow. */
const LINK_TOKENS: ReadonlySet<string> = new Set([
  "link",
  "literalAutolinkHttp",
  "literalAutolinkWww",
  "literalAutolinkEmail",
  "zulipBareLink",
]);

/** Inline elements between a paragraph and a link that make Zulip put the preview at the end of the message. */
const WRAPPER_TOKENS: ReadonlySet<string> = new Set(["emphasis", "strong", "strikethrough", "link"]);

export function annotateEvents(events: readonly Event[], state: RenderState): void {
  zulipAttention(events);
  let quoteDepth = 0;
  let paragraphDepth = 0;
  let codeTextDepth = 0;
  let wrapperDepth = 0;
  for (let index = 0; index < events.length; index++) {
    const [kind, token] = events[index]!;
    // `text  ` at a paragraph's end: the spaces stay, as in Zulip (mid-paragraph ones end at the `<br>`).
    if (kind === "exit" && token.type === "lineSuffix" && paragraphDepth > 0 && codeTextDepth === 0) {
      const next = events[index + 1];
      if (next && next[0] === "exit" && next[1].type === "paragraph") state.keptTrailingSpaces.add(token);
    }
    const delta = kind === "enter" ? 1 : -1;
    if (LINK_TOKENS.has(token.type) && kind === "enter" && quoteDepth === 0) {
      state.linkPlacement.set(token, paragraphDepth > 0 && wrapperDepth === 0 ? "paragraph" : "end");
    }
    if (WRAPPER_TOKENS.has(token.type)) wrapperDepth += delta;
    switch (token.type) {
      case "blockQuote":
      case "zulipQuoteFence":
        quoteDepth += delta;
        break;
      case "paragraph":
        paragraphDepth += delta;
        break;
      case "codeText":
        codeTextDepth += delta;
        break;
      case "zulipMention":
        if (kind === "enter" && quoteDepth > 0) state.quotedMentions.add(token);
        break;
      case "lineEnding":
        if (kind === "enter" && paragraphDepth > 0 && codeTextDepth === 0) state.softBreaks.add(token);
        break;
      default:
        break;
    }
  }
}
