/**
 * Channel and topic links: `#**channel**` and `#**channel>topic**`.
 * Unknown channels are not links (the text stays Markdown: `#<strong>x</strong>`).
 *
 * @see https://zulip.com/help/link-to-a-message-or-conversation
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import type { RenderState } from "../render-state.js";
import { escapeHtml } from "../../html.js";
import { channelNarrowUrl, topicNarrowUrl } from "../url.js";
import { ASTERISK, NUMBER_SIGN, allowedBeforeMention } from "./codes.js";

/** Syntax + HTML extensions for channel/topic links, bound to one render. */
export function streamLinkExtensions(state: RenderState): { syntax: Extension; html: HtmlExtension } {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    let inner = "";
    return start;

    function start(code: Code): State | undefined {
      if (code !== NUMBER_SIGN || !allowedBeforeMention(self.previous)) return nok(code);
      effects.enter("zulipStreamLink");
      effects.consume(code);
      return openFirst;
    }
    function openFirst(code: Code): State | undefined {
      if (code !== ASTERISK) return nok(code);
      effects.consume(code);
      return openSecond;
    }
    function openSecond(code: Code): State | undefined {
      if (code !== ASTERISK) return nok(code);
      effects.consume(code);
      return nameStart;
    }
    function nameStart(code: Code): State | undefined {
      if (code === ASTERISK) return nok(code);
      return name(code);
    }
    function name(code: Code): State | undefined {
      if (code === ASTERISK) {
        effects.consume(code);
        return closeSecond;
      }
      if (code === null || code < 0) return nok(code);
      inner += String.fromCharCode(code);
      effects.consume(code);
      return name;
    }
    function closeSecond(code: Code): State | undefined {
      if (code !== ASTERISK || !state.resolveStreamLink(inner)) return nok(code);
      effects.consume(code);
      effects.exit("zulipStreamLink");
      return ok;
    }
  }

  const syntax: Extension = {
    text: { [NUMBER_SIGN]: { name: "zulipStreamLink", tokenize } },
  };

  const html: HtmlExtension = {
    exit: {
      zulipStreamLink(this: CompileContext, token: Token) {
        const source = this.sliceSerialize(token);
        const target = state.resolveStreamLink(source.slice(3, -2));
        if (!target) return this.raw(this.encode(source));
        const { stream, topic } = target;
        if (topic === undefined) {
          this.tag(
            `<a class="stream" data-stream-id="${stream.id}" href="${escapeHtml(channelNarrowUrl(stream.id, stream.name))}">` +
              `#${escapeHtml(stream.name)}</a>`,
          );
        } else {
          this.tag(
            `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeHtml(topicNarrowUrl(stream.id, stream.name, topic))}">` +
              `#${escapeHtml(stream.name)} &gt; ${escapeHtml(topic)}</a>`,
          );
        }
      },
    },
  };

  return { syntax, html };
}
