/**
 * Zulip's stricter code-fence opener. Zulip's fence line is the marker run,
 * then a language and header that contain neither `` ` `` nor `~`
 * (`~~~x~~~` is text, where CommonMark would open a tilde fence with info
 * `x~~~`). This wraps micromark's fenced code: a fence line with either
 * character after its marker run is not a fence; everything else is
 * micromark's `codeFenced` unchanged (same tokens, same HTML).
 *
 * @see https://zulip.com/help/code-blocks
 */
import { codeFenced } from "micromark-core-commonmark";
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types";
import { GRAVE, TILDE, isLineEnding } from "./codes.js";

/** Succeeds when the fence line at this point has `` ` `` or `~` after its marker run. */
const fenceWithMarkerInInfo: Construct = {
  name: "zulipBadFenceLine",
  partial: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let marker = 0;
    return start;
    function start(code: Code): State | undefined {
      if (code !== GRAVE && code !== TILDE) return nok(code);
      marker = code;
      effects.enter("zulipFenceProbe");
      return sequence(code);
    }
    function sequence(code: Code): State | undefined {
      if (code === marker) {
        effects.consume(code);
        return sequence;
      }
      return rest(code);
    }
    function rest(code: Code): State | undefined {
      if (code === null || isLineEnding(code)) return nok(code);
      if (code === GRAVE || code === TILDE) {
        effects.exit("zulipFenceProbe");
        return ok(code);
      }
      effects.consume(code);
      return rest;
    }
  },
};

const zulipCodeFenced: Construct = {
  name: "zulipCodeFenced",
  concrete: true,
  tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const real = codeFenced.tokenize.call(this, effects, ok, nok);
    return effects.check(fenceWithMarkerInInfo, nok, real);
  },
};

/** Syntax: replaces micromark's `codeFenced` with the Zulip-strict opener. */
export const zulipCodeFenceSyntax: Extension = {
  disable: { null: ["codeFenced"] },
  flow: { [GRAVE]: zulipCodeFenced, [TILDE]: zulipCodeFenced },
};
