/**
 * Zulip's list rules on top of micromark's CommonMark list construct.
 *
 * Zulip (Python-Markdown with `tab_length` 2 for lists, plus a preprocessor
 * that puts a blank line before a list item that follows a text line)
 * differs from CommonMark in three ways users meet every day:
 *
 * - an item's content (its continuation lines and nested lists) is indented
 *   by 2 spaces from the marker, for `1.` items as well as `*` items
 *   (CommonMark wants the width of `1. `, i.e. 3);
 * - `*`, `-` and `+` items belong to one list (CommonMark starts a new list
 *   whenever the bullet changes); bullets and numbers still make two lists;
 * - any list item may follow a line of text directly, including numbered
 *   items not starting at 1 (CommonMark only lets `1.` and bullets interrupt
 *   a paragraph); a number of more than one digit, or an empty item, still
 *   cannot (Zulip's preprocessor only matches `\d\.` followed by spaces).
 *
 * We keep micromark's tokenizer (so the events, tight/loose detection and
 * HTML stay CommonMark's) and adjust its container state around it: the
 * construct is registered for the list markers under another name and
 * micromark's own `list` is disabled. The original is looked up in the
 * parser's construct map at run time, so we need no dependency on
 * `micromark-core-commonmark` itself.
 *
 * @see https://zulip.com/help/format-your-message-using-markdown#lists
 */
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from "micromark-util-types";
import { ASTERISK } from "./codes.js";

const PLUS = 43;
const DASH = 45;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
/** Columns of an item's content relative to its marker (Python-Markdown's `tab_length` for lists). */
const ZULIP_LIST_INDENT = 2;

function isBullet(code: Code): boolean {
  return code === ASTERISK || code === PLUS || code === DASH;
}

/** micromark's CommonMark list construct, from the parser's (combined) document constructs. */
function commonmarkList(context: TokenizeContext): Construct {
  const entry = context.parser.constructs.document[ASTERISK];
  const found = (Array.isArray(entry) ? entry : entry ? [entry] : []).find((construct: Construct) => construct.name === "list");
  if (!found) throw new Error("micromark's list construct is missing");
  return found;
}

/** Length of the indentation just tokenized before the marker (as micromark's list start measures it). */
function indentBefore(context: TokenizeContext): number {
  const tail = context.events[context.events.length - 1];
  return tail && tail[1].type === "linePrefix" ? context.sliceSerialize(tail[1], true).length : 0;
}

/** Digits of the ordered item value just tokenized, or 0 for a bullet. */
function valueDigits(context: TokenizeContext): number {
  for (let i = context.events.length - 1; i >= 0; i--) {
    const [kind, token] = context.events[i];
    if (token.type === "listItemPrefix" && kind === "enter") return 0;
    if (token.type === "listItemValue") return context.sliceSerialize(token).length;
  }
  return 0;
}

function tokenizeItemStart(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const self = this;
  const interrupting = self.interrupt;
  const indent = indentBefore(self);
  const state = self.containerState ?? {};
  const previousMarker = state.marker;

  function restore(): void {
    self.interrupt = interrupting;
  }

  function started(code: Code): State | undefined {
    restore();
    // Zulip only lets `\d. text` / `* text` follow a text line directly.
    if (interrupting && (state.initialBlankLine || valueDigits(self) > 1)) return nok(code);
    state.size = Math.min(state.size ?? ZULIP_LIST_INDENT, indent + ZULIP_LIST_INDENT);
    return ok(code);
  }

  function failed(code: Code): State | undefined {
    restore();
    state.marker = previousMarker;
    return nok(code);
  }

  return function start(code: Code): State | undefined {
    // Another bullet continues the list: let the CommonMark tokenizer see the
    // list's marker as this item's.
    if (state.type === "listUnordered" && isBullet(code)) state.marker = code;
    // The CommonMark rules for interrupting a paragraph are checked above instead.
    self.interrupt = undefined;
    return commonmarkList(self).tokenize.call(self, effects, started, failed)(code);
  };
}

function tokenizeContinuation(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  // micromark's continuation handles blank lines and indented content with
  // our `size`; where a line is not part of the current item it tries a next
  // item with the (disabled, so refusing) CommonMark construct: we try ours.
  const nextItem = (code: Code): State | undefined => effects.attempt(zulipList, ok, nok)(code);
  return commonmarkList(this).continuation!.tokenize.call(this, effects, ok, nextItem);
}

/** Our list construct (see the module comment). */
const zulipList: Construct = {
  name: "zulipList",
  tokenize: tokenizeItemStart,
  continuation: { tokenize: tokenizeContinuation },
  exit(this: TokenizeContext, effects: Effects) {
    effects.exit(this.containerState!.type as "listOrdered" | "listUnordered");
  },
};

const document: Record<number, Construct> = { [ASTERISK]: zulipList, [PLUS]: zulipList, [DASH]: zulipList };
for (let code = DIGIT_0; code <= DIGIT_9; code++) document[code] = zulipList;

/** Syntax extension replacing CommonMark lists with Zulip's (see the module comment). */
export const zulipListSyntax: Extension = {
  document,
  disable: { null: ["list"] },
};
