/**
 * Emoticons as emoji (`:)` → 🙂) for senders who turned on
 * `translate_emoticons`: Zulip's `EMOTICON_CONVERSIONS`, recognised only
 * between Zulip's "terminal symbols" (start or end of the text, whitespace,
 * `,.;?!()[]"'`), so `a:)` and `;)b` stay as typed.
 *
 * @see https://zulip.com/help/configure-emoticon-translations
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import { emojiCodeForName } from "../../emoji/names.js";
import { unicodeEmojiHtml } from "./emoji.js";

/** Emoticon → the emoji name it becomes (Zulip's table). */
export const EMOTICON_CONVERSIONS: Readonly<Record<string, string>> = {
  ":)": "smile",
  "(:": "smile",
  ":(": "frown",
  "<3": "heart",
  ":|": "neutral",
  ":/": "confused",
  ";)": "wink",
  ":D": "grinning",
  ":o": "open_mouth",
  ":O": "open_mouth",
  ":p": "stuck_out_tongue",
  ":P": "stuck_out_tongue",
};

const TERMINAL = new Set([...",.;?!()[] \"'"].map((ch) => ch.charCodeAt(0)));

/** Start or end of the text, a line ending, whitespace or one of Zulip's terminal symbols. */
function isTerminal(code: Code): boolean {
  return code === null || code < 0 || TERMINAL.has(code);
}

/** Syntax + HTML extensions for emoticons (add them only when the sender translates emoticons). */
export function emoticonExtensions(): { syntax: Extension; html: HtmlExtension } {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const previous = this.previous;
    let first: Code = null;
    return start;

    function start(code: Code): State | undefined {
      if (!isTerminal(previous)) return nok(code);
      first = code;
      effects.enter("zulipEmoticon");
      effects.consume(code);
      return second;
    }
    function second(code: Code): State | undefined {
      if (code === null || code < 0) return nok(code);
      const emoticon = String.fromCharCode(first as number, code);
      if (EMOTICON_CONVERSIONS[emoticon] === undefined) return nok(code);
      effects.consume(code);
      return end;
    }
    function end(code: Code): State | undefined {
      if (!isTerminal(code)) return nok(code);
      effects.exit("zulipEmoticon");
      return ok(code);
    }
  }

  const construct = { name: "zulipEmoticon", tokenize };
  const starts = new Set(Object.keys(EMOTICON_CONVERSIONS).map((e) => e.charCodeAt(0)));
  const syntax: Extension = { text: Object.fromEntries([...starts].map((code) => [code, construct])) };

  const html: HtmlExtension = {
    exit: {
      zulipEmoticon(this: CompileContext, token: Token) {
        const source = this.sliceSerialize(token);
        const name = EMOTICON_CONVERSIONS[source];
        const code = name === undefined ? undefined : emojiCodeForName(name);
        if (name === undefined || code === undefined) return this.raw(this.encode(source));
        this.tag(unicodeEmojiHtml(code, name));
      },
    },
  };
  return { syntax, html };
}
