/**
 * `~~text~~` with Zulip's rule: the text between the two `~~` may start and
 * end with spaces (`~~ x ~~` is struck through, spaces kept), where GFM wants
 * the tildes to "flank" the text. Zulip's pattern is a plain `~~`, some text
 * on the same line without `~`, `~~`; single tildes and runs of three or more
 * stay text.
 *
 * We reuse micromark's GFM strikethrough (its tokenizer and its pairing
 * resolver) and only widen which `~~` may open or close: any `~~` followed by
 * a character on the same line may open, any `~~` preceded by one may close.
 *
 * @see https://zulip.com/help/format-your-message-using-markdown#text-emphasis
 */
import { gfmStrikethrough } from "micromark-extension-gfm-strikethrough";
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types";
import { TILDE, isLineEnding } from "./codes.js";

const gfm = gfmStrikethrough({ singleTilde: false });
const gfmConstruct = gfm.text![TILDE] as Construct;

function tokenizeStrikethrough(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const self = this;
  const before = self.previous;
  const sequenceEnd = (code: Code): State | undefined => {
    const sequence = self.events[self.events.length - 1][1];
    if (code !== null && !isLineEnding(code)) sequence._open = true;
    if (before !== null && !isLineEnding(before)) sequence._close = true;
    return ok(code);
  };
  return gfmConstruct.tokenize.call(self, effects, sequenceEnd, nok);
}

const strikethrough: Construct = { name: gfmConstruct.name, tokenize: tokenizeStrikethrough, resolveAll: gfmConstruct.resolveAll };

/** Syntax extension for Zulip's `~~strikethrough~~` (use with micromark's `gfmStrikethroughHtml`). */
export const zulipStrikethroughSyntax: Extension = {
  text: { [TILDE]: strikethrough },
  insideSpan: { null: [strikethrough] },
  attentionMarkers: { null: [TILDE] },
};
