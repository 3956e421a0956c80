/**
 * LaTeX math: inline `$$…$$` and ```` ```math ```` blocks, rendered with KaTeX
 * on the server as Zulip does (clients only need KaTeX's CSS and fonts).
 *
 * @see https://zulip.com/help/latex
 */
import { createRequire } from "node:module";
import type Katex from "katex";
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import { escapeHtml } from "../../html.js";
import type { RenderState } from "../render-state.js";
import { BACKSLASH, DOLLAR, UNDERSCORE, isAsciiWord } from "./codes.js";

let katex: typeof Katex | undefined;

/**
 * KaTeX (about 270 KB of code), loaded on the first formula a process
 * renders rather than with the module: most messages have no math, and a
 * Lambda bundle without it starts faster. Loaded through `require` so the
 * Markdown renderer stays synchronous; esbuild leaves this call alone, so
 * the deployed functions find KaTeX in the `node_modules/katex` their asset
 * carries beside the bundle (infra/bundling.ts), and the local server and
 * tests find the installed package.
 */
function loadKatex(): typeof Katex {
  katex ??= createRequire(import.meta.url)("katex") as typeof Katex;
  return katex;
}

/**
 * KaTeX HTML for `tex`, or `undefined` when it does not parse. `trust: false`
 * (KaTeX's default) refuses `\href`, `\url`, `\htmlClass`… so a formula cannot
 * inject links or attributes; `maxExpand` bounds macro expansion.
 */
export function renderTex(tex: string, display: boolean): string | undefined {
  // Outside the try: a missing KaTeX is a deployment fault, not a bad formula.
  const renderer = loadKatex();
  try {
    return renderer.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: "ignore",
      maxExpand: 1000,
      maxSize: 100,
      output: "htmlAndMathml",
    });
  } catch {
    return undefined;
  }
}

/**
 * {@link renderTex} within the message's TeX budget (`state.texHtmlLeft`):
 * `undefined` once the budget is spent or when this formula's HTML would
 * overrun it, so the caller shows the source. Spent formulas are not
 * rendered at all, which also bounds the CPU time.
 */
export function renderTexWithinBudget(state: RenderState, tex: string, display: boolean): string | undefined {
  if (state.texHtmlLeft <= 0) return undefined;
  const html = renderTex(tex, display);
  if (html === undefined) return undefined;
  if (html.length > state.texHtmlLeft) {
    state.texHtmlLeft = 0;
    return undefined;
  }
  state.texHtmlLeft -= html.length;
  return html;
}

/** `<span class="tex-error">…</span>`: Zulip shows the source when KaTeX refuses it. */
export function texErrorHtml(source: string): string {
  return `<span class="tex-error">${escapeHtml(source)}</span>`;
}

/**
 * Syntax + HTML extensions for inline `$$…$$`, following Zulip's `TEX_RE`:
 * not preceded by a word character or `$`; the body does not start with `_`
 * or `$`, has no line ending, may contain `\$`; the closing `$$` is not
 * followed by `$` or a word character. So `$5 to $20` and `$$$` stay text.
 */
export function texExtensions(state: RenderState): { syntax: Extension; html: HtmlExtension } {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    return start;

    function start(code: Code): State | undefined {
      if (code !== DOLLAR || self.previous === DOLLAR || isAsciiWord(self.previous)) return nok(code);
      effects.enter("zulipTex");
      effects.consume(code);
      return openSecond;
    }
    function openSecond(code: Code): State | undefined {
      if (code !== DOLLAR) return nok(code);
      effects.consume(code);
      return bodyStart;
    }
    function bodyStart(code: Code): State | undefined {
      if (code === null || code === DOLLAR || code === UNDERSCORE || code < -2) return nok(code);
      return body(code);
    }
    function body(code: Code): State | undefined {
      if (code === null || code < -2) return nok(code);
      if (code === BACKSLASH) {
        effects.consume(code);
        return escaped;
      }
      if (code === DOLLAR) {
        effects.consume(code);
        return closeSecond;
      }
      effects.consume(code);
      return body;
    }
    function escaped(code: Code): State | undefined {
      if (code === DOLLAR) {
        effects.consume(code);
        return body;
      }
      return body(code);
    }
    function closeSecond(code: Code): State | undefined {
      if (code !== DOLLAR) return nok(code);
      effects.consume(code);
      return after;
    }
    function after(code: Code): State | undefined {
      if (code === DOLLAR || isAsciiWord(code)) return nok(code);
      effects.exit("zulipTex");
      return ok(code);
    }
  }

  const syntax: Extension = {
    text: { [DOLLAR]: { name: "zulipTex", tokenize } },
  };

  const html: HtmlExtension = {
    exit: {
      zulipTex(this: CompileContext, token: Token) {
        const source = this.sliceSerialize(token);
        const rendered = renderTexWithinBudget(state, source.slice(2, -2), false);
        this.tag(rendered ?? texErrorHtml(source));
      },
    },
  };

  return { syntax, html };
}
