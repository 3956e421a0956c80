/**
 * Emoji: `:name:` (realm emoji first, then Zulip's Unicode names) and Unicode
 * emoji characters typed directly, both rendered as Zulip's emoji markup.
 *
 * @see https://zulip.com/help/emoji-and-emoticons
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import { emojiCodeOfText } from "../../emoji/codes.js";
import { emojiCodeForName, emojiNameForCode } from "../../emoji/names.js";
import type { RenderState } from "../render-state.js";
import { escapeHtml } from "../../html.js";
import { COLON, isAsciiWord } from "./codes.js";

/** Zulip's built-in `:zulip:` emoji (served by the web app's static files). */
const ZULIP_EMOJI_URL = "/static/generated/emoji/images/emoji/unicode/zulip.png";

/** `<span … class="emoji emoji-1f642" …>:smile:</span>`; title/label are the name with spaces. */
export function unicodeEmojiHtml(code: string, name: string): string {
  const label = escapeHtml(name.replace(/_/g, " "));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

/** `<img alt=":name:" class="emoji" src="…" title="name">` for realm (custom) emoji. */
export function imageEmojiHtml(name: string, src: string): string {
  return (
    `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(src)}" ` +
    `title="${escapeHtml(name.replace(/_/g, " "))}">`
  );
}

/** Characters of an emoji name: Zulip's `[\w\-\+]` (ASCII). */
function isEmojiNameChar(code: Code): boolean {
  return isAsciiWord(code) || code === 45 /* - */ || code === 43 /* + */;
}

/** Syntax + HTML extensions for `:name:`, bound to one render (realm emoji). */
export function emojiExtensions(state: RenderState): { syntax: Extension; html: HtmlExtension } {
  function known(name: string): boolean {
    return state.realmEmoji(name) !== undefined || name === "zulip" || emojiCodeForName(name) !== undefined;
  }

  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    let name = "";
    return start;

    function start(code: Code): State | undefined {
      if (code !== COLON) return nok(code);
      effects.enter("zulipEmoji");
      effects.consume(code);
      return nameStart;
    }
    function nameStart(code: Code): State | undefined {
      if (!isEmojiNameChar(code)) return nok(code);
      return nameRest(code);
    }
    function nameRest(code: Code): State | undefined {
      if (code === COLON) {
        if (!known(name)) return nok(code);
        effects.consume(code);
        effects.exit("zulipEmoji");
        return ok;
      }
      if (!isEmojiNameChar(code)) return nok(code);
      name += String.fromCharCode(code!);
      effects.consume(code);
      return nameRest;
    }
  }

  const syntax: Extension = {
    text: { [COLON]: { name: "zulipEmoji", tokenize } },
  };

  const html: HtmlExtension = {
    exit: {
      zulipEmoji(this: CompileContext, token: Token) {
        const source = this.sliceSerialize(token);
        const name = source.slice(1, -1);
        const realm = state.realmEmoji(name);
        if (realm) return this.tag(imageEmojiHtml(name, realm.source_url));
        if (name === "zulip") return this.tag(imageEmojiHtml(name, ZULIP_EMOJI_URL));
        const code = emojiCodeForName(name);
        if (!code) return this.raw(this.encode(source));
        this.tag(unicodeEmojiHtml(code, name));
      },
    },
  };

  return { syntax, html };
}

/**
 * One emoji "sequence": a keycap, a flag (two regional indicators or a tag
 * sequence), or pictographs joined by ZWJ, each optionally followed by a
 * variation selector and/or a skin tone.
 */
const EMOJI_SEQUENCE =
  /[#*0-9]\uFE0F?\u20E3|\p{RI}\p{RI}|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|\p{Extended_Pictographic}\uFE0F?[\u{1F3FB}-\u{1F3FF}]?(?:\u200D(?:\p{Extended_Pictographic}|\p{Emoji_Component})\uFE0F?[\u{1F3FB}-\u{1F3FF}]?)*/gu;
/** Cheap pre-check: could this text contain an emoji at all? */
const MAYBE_EMOJI = /[\u00a9\u00ae\u203c-\u3299\ud83c-\ud83e\u20e3]/;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;

/**
 * Renders plain text with every known Unicode emoji wrapped in Zulip's emoji
 * span; everything else goes through `encode`. As in Zulip, a lone character
 * whose default presentation is text (©, ↔, ☺ without U+FE0F) stays text, and
 * a sequence Zulip does not know (skin tones, newer ZWJ sequences) is left
 * entirely as typed rather than split into parts.
 */
export function renderTextWithUnicodeEmoji(text: string, encode: (value: string) => string): string {
  if (!MAYBE_EMOJI.test(text)) return encode(text);
  let out = "";
  let last = 0;
  EMOJI_SEQUENCE.lastIndex = 0;
  for (let match = EMOJI_SEQUENCE.exec(text); match; match = EMOJI_SEQUENCE.exec(text)) {
    const sequence = match[0];
    const single = [...sequence];
    if (single.length === 1 && !EMOJI_PRESENTATION.test(sequence)) continue;
    const code = emojiCodeOfText(sequence);
    const name = emojiNameForCode(code);
    if (!name) continue;
    out += encode(text.slice(last, match.index)) + unicodeEmojiHtml(code, name);
    last = match.index + sequence.length;
  }
  return out + encode(text.slice(last));
}
