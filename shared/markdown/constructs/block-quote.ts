/**
 * Zulip's `>` block quotes, as micromark's `blockQuote` with two changes:
 *
 * - A run of lines that are only `>` markers (up to a blank line or the end)
 *   is not a quote: Zulip shows the `>` as text (`>` alone is `<p>&gt;</p>`;
 *   `>>>` is two quotes around the text `>`).
 * - Once a quote has begun, a following plain text line stays in it until a
 *   blank line, even when no paragraph is open (`>` then `text` quotes
 *   `text`). Lines that start a block of their own (heading, list item,
 *   fence, table row) still end the quote, as they do in Zulip.
 *
 * @see https://zulip.com/help/format-a-quote
 */
import { blockQuote } from "micromark-core-commonmark";
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types";
import { GREATER_THAN, SPACE, isLineEnding, isSpaceOrTab } from "./codes.js";

/** Succeeds when, from this `>`, every line up to a blank line or the end holds only `>` markers and spaces. */
const onlyEmptyQuoteLines: Construct = {
  name: "zulipEmptyQuoteProbe",
  partial: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    return first;
    function first(code: Code): State | undefined {
      if (code !== GREATER_THAN) return nok(code);
      effects.enter("zulipQuoteProbe");
      effects.consume(code);
      return restOfLine;
    }
    function restOfLine(code: Code): State | undefined {
      if (isSpaceOrTab(code)) {
        effects.consume(code);
        return restOfLine;
      }
      if (code === null) return done(code);
      if (!isLineEnding(code)) return nok(code);
      effects.consume(code);
      return nextLine;
    }
    // Later lines also carry the markers of any quotes around this one.
    function nextLine(code: Code): State | undefined {
      if (code === null || isLineEnding(code)) return done(code);
      return markers(code);
    }
    function markers(code: Code): State | undefined {
      if (code === GREATER_THAN || isSpaceOrTab(code)) {
        effects.consume(code);
        return markers;
      }
      if (code === null) return done(code);
      if (!isLineEnding(code)) return nok(code);
      effects.consume(code);
      return nextLine;
    }
    function done(code: Code): State | undefined {
      effects.exit("zulipQuoteProbe");
      return ok(code);
    }
  },
};

const ASTERISK = 42;
const PLUS = 43;
const DASH = 45;
const BLOCK_STARTERS = new Set([..."#`~|"].map((ch) => ch.charCodeAt(0)));

/** Succeeds on a non-blank line that would be paragraph text (not a heading, list item, fence or table row). */
const plainTextLine: Construct = {
  name: "zulipQuoteTextLine",
  partial: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let indent = 0;
    let digits = 0;
    return start;
    function start(code: Code): State | undefined {
      effects.enter("zulipQuoteProbe");
      return indentation(code);
    }
    function indentation(code: Code): State | undefined {
      if (code === SPACE && indent < 3) {
        indent++;
        effects.consume(code);
        return indentation;
      }
      if (code === null || isLineEnding(code) || isSpaceOrTab(code)) return nok(code);
      if (code === GREATER_THAN || BLOCK_STARTERS.has(code)) return nok(code);
      if (code === ASTERISK || code === PLUS || code === DASH) {
        effects.consume(code);
        return afterBullet;
      }
      return number(code);
    }
    function afterBullet(code: Code): State | undefined {
      // `- item`, `-` alone, `***` / `---` rules are blocks; `-5 °C` is text.
      if (code === null || isLineEnding(code) || isSpaceOrTab(code)) return nok(code);
      if (code === ASTERISK || code === DASH) return nok(code);
      return text(code);
    }
    function number(code: Code): State | undefined {
      if (code !== null && code >= 48 && code <= 57 && digits < 9) {
        digits++;
        effects.consume(code);
        return number;
      }
      if (digits > 0 && (code === 46 || code === 41)) {
        effects.consume(code);
        return afterNumber;
      }
      return text(code);
    }
    function afterNumber(code: Code): State | undefined {
      if (code === null || isLineEnding(code) || isSpaceOrTab(code)) return nok(code);
      return text(code);
    }
    function text(code: Code): State | undefined {
      // Tokens may not be empty: take one character of the text first.
      if (code !== null && !isLineEnding(code)) {
        effects.consume(code);
        return textTaken;
      }
      return textTaken(code);
    }
    function textTaken(code: Code): State | undefined {
      effects.exit("zulipQuoteProbe");
      return ok(code);
    }
  },
};

/**
 * A continuation line's `>` (after up to 3 spaces). micromark's own
 * continuation re-enters `blockQuote` by name, which is disabled here, so
 * this calls its start tokenizer directly.
 */
const markedLine: Construct = {
  partial: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    let size = 0;
    return prefix;
    function prefix(code: Code): State | undefined {
      if (isSpaceOrTab(code) && size < 3) {
        if (size === 0) effects.enter("linePrefix");
        size++;
        effects.consume(code);
        return prefix;
      }
      if (size > 0) effects.exit("linePrefix");
      return blockQuote.tokenize.call(self, effects, ok, nok)(code);
    }
  },
};

const zulipBlockQuote: Construct = {
  name: "zulipBlockQuote",
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const real = blockQuote.tokenize.call(this, effects, ok, nok);
    return effects.check(onlyEmptyQuoteLines, nok, real);
  },
  continuation: {
    tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
      return effects.attempt(markedLine, ok, effects.check(plainTextLine, ok, nok));
    },
  },
  exit: blockQuote.exit,
};

/** Syntax: replaces micromark's `blockQuote` with Zulip's. */
export const zulipBlockQuoteSyntax: Extension = {
  disable: { null: ["blockQuote"] },
  document: { [GREATER_THAN]: zulipBlockQuote },
};
