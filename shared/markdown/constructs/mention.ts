/**
 * User and group mentions: `@**Full Name**`, `@**Full Name|12**`, `@**|12**`,
 * silent `@_**Full Name**`, wildcards `@**all**` … `@**topic**`, groups
 * `@*group*` and silent `@_*group*`.
 *
 * A mention that does not resolve is not a mention at all: the text stays
 * Markdown, so `@**nobody**` renders as `@<strong>nobody</strong>`, as in
 * Zulip.
 *
 * @see https://zulip.com/help/mention-a-user-or-group
 */
import type { Code, CompileContext, Effects, Extension, HtmlExtension, State, Token, TokenizeContext } from "micromark-util-types";
import type { RenderState } from "../render-state.js";
import { escapeHtml } from "../../html.js";
import { ASTERISK, AT, UNDERSCORE, allowedBeforeMention, isLineEnding } from "./codes.js";

interface ParsedMention {
  silent: boolean;
  group: boolean;
  name: string;
}

/** Splits the source of a mention token (`@_**Name**`) into its parts. */
function parseMention(source: string): ParsedMention {
  let rest = source.slice(1);
  const silent = rest.startsWith("_");
  if (silent) rest = rest.slice(1);
  const group = !rest.startsWith("**");
  const stars = group ? 1 : 2;
  return { silent, group, name: rest.slice(stars, rest.length - stars) };
}

/** Syntax + HTML extensions for mentions, bound to one render's lookups and results. */
export function mentionExtensions(state: RenderState): { syntax: Extension; html: HtmlExtension } {
  function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const self = this;
    let stars = 0;
    let name = "";
    return start;

    function start(code: Code): State | undefined {
      if (code !== AT || !allowedBeforeMention(self.previous)) return nok(code);
      effects.enter("zulipMention");
      effects.consume(code);
      return afterAt;
    }
    function afterAt(code: Code): State | undefined {
      if (code === UNDERSCORE) {
        effects.consume(code);
        return openFirst;
      }
      return openFirst(code);
    }
    function openFirst(code: Code): State | undefined {
      if (code !== ASTERISK) return nok(code);
      effects.consume(code);
      stars = 1;
      return openSecond;
    }
    function openSecond(code: Code): State | undefined {
      if (code === ASTERISK) {
        effects.consume(code);
        stars = 2;
        return nameStart;
      }
      return nameStart(code);
    }
    function nameStart(code: Code): State | undefined {
      if (code === null || code === ASTERISK || code < 0) return nok(code);
      return nameRest(code);
    }
    function nameRest(code: Code): State | undefined {
      if (code === ASTERISK) {
        effects.consume(code);
        return stars === 2 ? closeSecond : done;
      }
      // Names never span lines; tabs are not in names either.
      if (code === null || code < 0 || isLineEnding(code)) return nok(code);
      name += String.fromCharCode(code);
      effects.consume(code);
      return nameRest;
    }
    function closeSecond(code: Code): State | undefined {
      if (code !== ASTERISK) return nok(code);
      effects.consume(code);
      return done;
    }
    function done(code: Code): State | undefined {
      const resolves = stars === 2 ? state.resolveUserMention(name) !== undefined : state.resolveGroup(name) !== undefined;
      if (!resolves) return nok(code);
      effects.exit("zulipMention");
      return ok(code);
    }
  }

  const syntax: Extension = {
    text: { [AT]: { name: "zulipMention", tokenize } },
  };

  const html: HtmlExtension = {
    exit: {
      zulipMention(this: CompileContext, token: Token) {
        const source = this.sliceSerialize(token);
        const mention = parseMention(source);
        // Zulip silences every mention inside a quote (replies quote the
        // original; nobody should be notified again).
        let silent = mention.silent || state.quotedMentions.has(token);
        if (mention.group) {
          const group = state.resolveGroup(mention.name);
          if (!group) return this.raw(this.encode(source));
          if (!silent) state.mentionedGroupIds.add(group.id);
          this.tag(
            `<span class="user-group-mention${silent ? " silent" : ""}" data-user-group-id="${group.id}">` +
              `${silent ? "" : "@"}${escapeHtml(group.name)}</span>`,
          );
          return;
        }
        const target = state.resolveUserMention(mention.name);
        if (!target) return this.raw(this.encode(source));
        if (target.kind === "wildcard") {
          if (!silent) state.wildcards.push(target.wildcard);
          const text = `${silent ? "" : "@"}${escapeHtml(mention.name)}`;
          if (target.wildcard === "topic") {
            this.tag(`<span class="topic-mention${silent ? " silent" : ""}">${text}</span>`);
          } else {
            this.tag(`<span class="user-mention${silent ? " silent" : ""}" data-user-id="*">${text}</span>`);
          }
          return;
        }
        const user = target.user;
        // Deactivated users are shown, but as a silent mention nobody is notified of.
        if (user.is_active === false) silent = true;
        if (!silent) state.mentionedUserIds.add(user.id);
        this.tag(
          `<span class="user-mention${silent ? " silent" : ""}" data-user-id="${user.id}">` +
            `${silent ? "" : "@"}${escapeHtml(user.full_name)}</span>`,
        );
      },
    },
  };

  return { syntax, html };
}
