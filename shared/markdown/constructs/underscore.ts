/**
 * Zulip does not use `_` for emphasis (`_foo_` and `__foo__` stay as typed,
 * so snake_case identifiers and `__init__` are never mangled). We claim runs of
 * `_` before CommonMark's attention construct sees them and print them back.
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import { UNDERSCORE } from "./codes.js";

function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  return start;
  function start(code: Code): State | undefined {
    if (code !== UNDERSCORE) return nok(code);
    effects.enter("zulipUnderscore");
    return run(code);
  }
  function run(code: Code): State | undefined {
    if (code === UNDERSCORE) {
      effects.consume(code);
      return run;
    }
    effects.exit("zulipUnderscore");
    return ok(code);
  }
}

/** Syntax: `_` runs are literal text. */
export const underscoreSyntax: Extension = {
  text: { [UNDERSCORE]: { name: "zulipUnderscore", tokenize } },
};

/** HTML: print the underscores. */
export const underscoreHtml: HtmlExtension = {
  exit: {
    zulipUnderscore(this: CompileContext, token: Token) {
      this.raw(this.sliceSerialize(token));
    },
  },
};
