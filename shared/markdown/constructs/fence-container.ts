/**
 * Zulip's fenced blocks whose content is Markdown, not code:
 * ```` ```quote ```` (also `quoted`) renders as a block quote, and
 * ```` ```spoiler Header ```` as a collapsible spoiler with a Markdown header.
 *
 * Unlike a code fence (a flow construct whose content is raw), these are
 * document *containers*, like `>` block quotes: everything between the fences
 * is parsed as Markdown (lists, code, nested quotes and spoilers). Each line
 * first asks the container whether it continues; we close on a fence of the
 * same character and at least the same length with nothing after it.
 *
 * To nest the way users expect (a ```` ``` ```` code block inside a
 * ```` ```quote ```` must not end the quote), the container tracks the
 * fences opened inside it: a bare fence closes the innermost open one; only
 * when none is open does it close the container. Inside an open code fence,
 * only that code fence's closer counts.
 *
 * @see https://zulip.com/help/format-a-quote
 * @see https://zulip.com/help/spoilers
 */
import type { Code, CompileContext, Construct, Effects, Extension, HtmlExtension, State, TokenizeContext } from "micromark-util-types";
import type { ZulipFenceContainerState } from "./micromark-augment.js";
import { GRAVE, SPACE, TILDE, isLineEnding, isSpaceOrTab } from "./codes.js";

type FenceKind = "quote" | "spoiler";

/** The first word of a fence's info string that makes it one of our containers. */
function containerKind(word: string): FenceKind | undefined {
  if (word === "quote" || word === "quoted") return "quote";
  if (word === "spoiler") return "spoiler";
  return undefined;
}

interface FenceLine {
  marker: number;
  size: number;
  info: string;
}

/** Checks (without keeping anything) whether a line is a code fence, and reports it. */
function fenceLineScanner(report: (line: FenceLine) => void): Construct {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let indent = 0;
    let marker = 0;
    let size = 0;
    let info = "";
    return start;

    function start(code: Code): State | undefined {
      effects.enter("zulipFenceClose");
      return indentation(code);
    }
    function indentation(code: Code): State | undefined {
      if (code === SPACE && indent < 3) {
        indent++;
        effects.consume(code);
        return indentation;
      }
      if (code !== GRAVE && code !== TILDE) return nok(code);
      marker = code;
      return sequence(code);
    }
    function sequence(code: Code): State | undefined {
      if (code === marker) {
        size++;
        effects.consume(code);
        return sequence;
      }
      return size < 3 ? nok(code) : rest(code);
    }
    function rest(code: Code): State | undefined {
      if (code === null || isLineEnding(code)) {
        effects.exit("zulipFenceClose");
        report({ marker, size, info: info.trim() });
        return ok(code);
      }
      // Zulip: a fence's info string holds neither fence character
      // (```` ```x``` ```` on one line is inline code, `~~~x~~~` is text).
      if (code === GRAVE || code === TILDE) return nok(code);
      info += code === -2 || code === -1 ? " " : String.fromCharCode(code);
      effects.consume(code);
      return rest;
    }
  }
  return { name: "zulipFenceLine", tokenize, partial: true };
}

/** Consumes this container's closing fence line. */
function closingFenceConstruct(fence: ZulipFenceContainerState): Construct {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let size = 0;
    let indent = 0;
    return start;
    function start(code: Code): State | undefined {
      effects.enter("zulipFenceClose");
      return indentation(code);
    }
    function indentation(code: Code): State | undefined {
      if (code === SPACE && indent < 3) {
        indent++;
        effects.consume(code);
        return indentation;
      }
      return sequence(code);
    }
    function sequence(code: Code): State | undefined {
      if (code === fence.marker) {
        size++;
        effects.consume(code);
        return sequence;
      }
      if (size < fence.size) return nok(code);
      return after(code);
    }
    function after(code: Code): State | undefined {
      if (isSpaceOrTab(code)) {
        effects.consume(code);
        return after;
      }
      if (code !== null && !isLineEnding(code)) return nok(code);
      effects.exit("zulipFenceClose");
      return ok(code);
    }
  }
  return { name: "zulipFenceCloseLine", tokenize, partial: true };
}

function tokenizeContinuation(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const current = this.containerState?.zulipFence;
  if (!current || current.closed) return nok;
  const fence = current;
  let line: FenceLine | undefined;
  return effects.check(fenceLineScanner((found) => (line = found)), onFenceLine, ok);

  function onFenceLine(code: Code): State | undefined {
    const found = line!;
    const isBare = found.info === "";
    const closes = (open: { marker: number; size: number }) =>
      isBare && found.marker === open.marker && found.size >= open.size;
    const opened = { marker: found.marker, size: found.size, code: !containerKind(found.info.split(/\s/)[0]) };
    const innermost = fence.inner[fence.inner.length - 1];
    if (innermost) {
      if (closes(innermost)) fence.inner.pop();
      // Inside a code block every other line is just code.
      else if (!innermost.code) fence.inner.push(opened);
      return ok(code);
    }
    if (closes(fence)) {
      return effects.attempt(closingFenceConstruct(fence), closed, ok)(code);
    }
    fence.inner.push(opened);
    return ok(code);
  }
  function closed(code: Code): State | undefined {
    fence.closed = true;
    return ok(code);
  }
}

/**
 * Most fenced quotes/spoilers open at once. Each line asks every open
 * container whether it continues, so unbounded nesting (a message of
 * thousands of ```` ```quote ```` lines) would cost quadratic time; past this
 * depth an opener is an ordinary code fence.
 */
export const MAX_FENCE_NESTING = 16;

/** Offsets of the openers of the containers currently open in one parse. */
type OpenSet = Set<number>;

function openerTokenizer(kind: FenceKind, openContainers: OpenSet) {
  const type = kind === "quote" ? "zulipQuoteFence" : "zulipSpoilerFence";
  return function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    let marker = 0;
    let size = 0;
    let word = "";
    let spaced = false;
    const offset = self.now().offset;
    return start;

    function start(code: Code): State | undefined {
      if (code !== GRAVE && code !== TILDE) return nok(code);
      // The same opener may be tried twice (a check, then the real attempt),
      // so containers are counted by the offset they open at.
      if (openContainers.size >= MAX_FENCE_NESTING && !openContainers.has(offset)) return nok(code);
      marker = code;
      effects.enter(type, { _container: true });
      effects.enter("zulipFenceOpen");
      return sequence(code);
    }
    function sequence(code: Code): State | undefined {
      if (code === marker) {
        size++;
        effects.consume(code);
        return sequence;
      }
      return size < 3 ? nok(code) : beforeWord(code);
    }
    function beforeWord(code: Code): State | undefined {
      if (isSpaceOrTab(code)) {
        effects.consume(code);
        return beforeWord;
      }
      return wordChar(code);
    }
    function wordChar(code: Code): State | undefined {
      if (code !== null && ((code >= 97 && code <= 122) || (code >= 65 && code <= 90))) {
        word += String.fromCharCode(code);
        effects.consume(code);
        return wordChar;
      }
      if (containerKind(word) !== kind) return nok(code);
      return afterWord(code);
    }
    function afterWord(code: Code): State | undefined {
      if (isSpaceOrTab(code)) {
        spaced = true;
        effects.consume(code);
        return afterWord;
      }
      if (code === null || isLineEnding(code)) return opened(code);
      // Only a spoiler takes text after its keyword (its header).
      if (kind !== "spoiler" || !spaced || (marker === GRAVE && code === GRAVE)) return nok(code);
      effects.enter("zulipSpoilerHeader");
      effects.enter("chunkText", { contentType: "text" });
      return header(code);
    }
    function header(code: Code): State | undefined {
      if (code === null || isLineEnding(code)) {
        effects.exit("chunkText");
        effects.exit("zulipSpoilerHeader");
        return opened(code);
      }
      if (marker === GRAVE && code === GRAVE) return nok(code);
      effects.consume(code);
      return header;
    }
    function opened(code: Code): State | undefined {
      effects.exit("zulipFenceOpen");
      self.containerState!.zulipFence = { marker, size, inner: [], closed: false, offset };
      openContainers.add(offset);
      return ok(code);
    }
  };
}

function exitFor(type: "zulipQuoteFence" | "zulipSpoilerFence", openContainers: OpenSet) {
  return function exit(this: TokenizeContext, effects: Effects): undefined {
    const fence = this.containerState?.zulipFence;
    if (fence) openContainers.delete(fence.offset);
    effects.exit(type);
  };
}

/**
 * Syntax: ```` ```quote ```` and ```` ```spoiler ```` containers (either fence
 * character). One instance per parse: it counts open containers.
 */
export function fenceContainerSyntax(): Extension {
  const openContainers: OpenSet = new Set();
  const quoteFence: Construct = {
    name: "zulipQuoteFence",
    tokenize: openerTokenizer("quote", openContainers),
    continuation: { tokenize: tokenizeContinuation },
    exit: exitFor("zulipQuoteFence", openContainers),
  };
  const spoilerFence: Construct = {
    name: "zulipSpoilerFence",
    tokenize: openerTokenizer("spoiler", openContainers),
    continuation: { tokenize: tokenizeContinuation },
    exit: exitFor("zulipSpoilerFence", openContainers),
  };
  return { document: { [GRAVE]: [quoteFence, spoilerFence], [TILDE]: [quoteFence, spoilerFence] } };
}

/** HTML: `<blockquote>` and Zulip's spoiler markup. */
export function fenceContainerHtml(): HtmlExtension {
  const open: FenceKind[] = [];
  return {
    enter: {
      zulipQuoteFence(this: CompileContext) {
        open.push("quote");
        this.getData("tightStack").push(false);
        this.lineEndingIfNeeded();
        this.tag("<blockquote>");
      },
      zulipSpoilerFence(this: CompileContext) {
        open.push("spoiler");
        this.getData("tightStack").push(false);
        this.lineEndingIfNeeded();
        this.tag('<div class="spoiler-block"><div class="spoiler-header">');
        this.raw("\n");
      },
      zulipSpoilerHeader(this: CompileContext) {
        this.tag("<p>");
      },
    },
    exit: {
      zulipSpoilerHeader(this: CompileContext) {
        this.tag("</p>");
        this.raw("\n");
      },
      zulipFenceOpen(this: CompileContext) {
        if (open[open.length - 1] === "spoiler") {
          this.tag('</div><div class="spoiler-content" aria-hidden="true">');
          this.raw("\n");
        }
      },
      zulipQuoteFence(this: CompileContext) {
        open.pop();
        this.getData("tightStack").pop();
        this.lineEndingIfNeeded();
        this.tag("</blockquote>");
        this.setData("slurpAllLineEndings");
      },
      zulipSpoilerFence(this: CompileContext) {
        open.pop();
        this.getData("tightStack").pop();
        this.lineEndingIfNeeded();
        this.tag("</div></div>");
        this.setData("slurpAllLineEndings");
      },
    },
  };
}
