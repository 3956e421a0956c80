/**
 * Our replacements for micromark's default HTML of CommonMark/GFM constructs,
 * so the output is Zulip's:
 *
 * - code blocks: `<div class="codehilite" data-code-language="Python"><pre><span></span><code>…</code></pre></div>`,
 *   highlighted with Pygments' token classes when the render has a
 *   highlighter (`RenderLookups.highlightCode`), trailing spaces stripped
 *   per line; ```` ```math ```` renders KaTeX in a `<p>`;
 * - links: Zulip's scheme allow-list (a refused link stays as typed text),
 *   organization-local links made relative, empty labels show the URL, and
 *   `hasLink` / upload (attachment, image) detection;
 * - lists: a list nested in a tight item follows the item's text without a
 *   newline, as in Zulip's HTML;
 * - line breaks: a newline inside a paragraph is `<br>` (Zulip's nl2br); void
 *   elements are HTML (`<br>`, `<hr>`), not XHTML;
 * - text: Unicode emoji characters wrapped in Zulip's emoji span;
 * - inline image previews (`../previews.ts`): a paragraph is buffered so the
 *   previews of its links follow it (or replace it when it holds only the
 *   link), as Zulip inserts them after the paragraph or inside the list item.
 *
 * These handlers reuse micromark's own compile data (`tightStack`,
 * `slurpOneLineEnding`, `fencesCount`…) through `getData`/`setData`, exactly
 * as the defaults do.
 */
import type { CompileContext, HtmlExtension, Token } from "micromark-util-types";
import { codeLanguageName } from "../code-languages.js";
import type { RenderState } from "../render-state.js";
import { escapeHtml } from "../../html.js";
import { inlineImagePreview, leadingText } from "../previews.js";
import { endsAtLinkBoundary, relativizeLocalUrl, sanitizeUrl, uploadPathId, withinLinkNesting } from "../url.js";
import { renderTextWithUnicodeEmoji } from "./emoji.js";
import { renderTexWithinBudget, texErrorHtml } from "./tex.js";

/** Text content: Zulip escapes `&`, `<`, `>` and leaves quotes alone. */
function escapeText(value: string): string {
  return value.replace(/[&<>]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;"));
}

/** Code block content, escaped as Pygments does (quotes included). */
function escapeCode(value: string): string {
  return escapeHtml(value).replace(/'/g, "&#39;");
}

/** The text {@link escapeCode} escaped. */
function unescapeCode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] ?? "");
}

/**
 * The language word of a code fence's info string. Zulip (like Python-Markdown's
 * fenced_code) also accepts `.py` and `{.py}`; the dot and braces are not part of it.
 */
function fenceLanguage(info: string): string {
  return info.trim().replace(/^\{?\.?/, "").replace(/\}$/, "");
}

/** The HTML extension with Zulip's output for core constructs, bound to one render. */
export function coreHtml(state: RenderState): HtmlExtension {
  /** Records a rendered link for has_link / has_attachment. */
  function noteLink(href: string): void {
    state.hasLink = true;
    const path = uploadPathId(href);
    if (path !== undefined) state.attachmentPathIds.add(path);
  }

  /**
   * Zulip's preview pass for one rendered link: each distinct URL outside
   * quotes once (its first occurrence), an image gets a preview after its
   * paragraph or at the end of the message (`has_image`).
   */
  function notePreview(token: Token, href: string, text: string | null, linkHtml: string): void {
    const placement = state.linkPlacement.get(token);
    if (placement === undefined || state.previewUrls.has(href)) return;
    state.previewUrls.add(href);
    if (!state.previewsEnabled) return;
    const preview = inlineImagePreview(href, text, state.realmId, state.uploadPreviews, state.externalImageUrl, state.realmUrl);
    if (!preview) return;
    if (preview.pendingPathId !== undefined) state.thumbnailPending.add(preview.pendingPathId);
    state.hasImage = true;
    const paragraph = placement === "paragraph" ? state.paragraphPreviews[state.paragraphPreviews.length - 1] : undefined;
    if (paragraph) paragraph.push({ ...preview, linkHtml });
    else state.endPreviews.push(preview.html);
  }

  /** `<a href>` for an autolinked literal (bare URL, `www.`, email). */
  function literalLink(this: CompileContext, token: Token, prefix: string): void {
    const source = this.sliceSerialize(token);
    if (!endsAtLinkBoundary(state.source, token.end.offset) || !withinLinkNesting(source)) {
      this.raw(this.encode(source));
      return;
    }
    // GFM keeps a trailing `>` in the URL; Zulip ends a bare URL before it
    // (`<https://x.com>` links `https://x.com`).
    const text = source.replace(/>+$/, "");
    const after = source.slice(text.length);
    const sanitized = sanitizeUrl(prefix + text);
    if (sanitized === undefined || text === "") {
      this.raw(this.encode(source));
      return;
    }
    const href = relativizeLocalUrl(sanitized, state.realmUrl);
    noteLink(href);
    const open = `<a href="${escapeHtml(href)}">`;
    const label = this.encode(text);
    this.tag(open);
    this.raw(label);
    this.tag("</a>");
    notePreview(token, href, text, `${open}${label}</a>`);
    this.raw(this.encode(after));
  }

  function openCode(this: CompileContext, language: string | undefined): void {
    state.inFlowCode = true;
    state.pendingCodeNewlines = 0;
    const name = language ? codeLanguageName(language) : undefined;
    this.tag(`<div class="codehilite"${name ? ` data-code-language="${escapeHtml(name)}"` : ""}><pre><span></span><code>`);
    // The block's lines are collected, then highlighted as a whole (see `closeCode`).
    state.codeBlockLanguage = language;
    this.buffer();
  }

  /** Same bookkeeping as micromark's `onexitflowcode`, with Zulip's closing tags. */
  function closeCode(this: CompileContext): void {
    const count = this.getData("fencesCount");
    if (state.math) {
      const tex = state.math.join("").replace(/\n$/, "");
      state.math = undefined;
      this.lineEndingIfNeeded();
      // A display block's error escapes quotes too (`&#x27;`), as Zulip's does; an inline one leaves them.
      this.tag(`<p>${renderTexWithinBudget(state, tex, true) ?? texErrorHtml(tex).replace(/'/g, "&#x27;")}</p>`);
    } else {
      // Blank lines at the end were held back (see `lineEnding`) and are
      // dropped; the last line still ends with a newline, as in Zulip's output.
      const escaped = this.resume();
      const highlighted = escaped === "" ? undefined : state.highlightCode?.(unescapeCode(escaped), state.codeBlockLanguage);
      this.raw(highlighted ?? escaped);
      if (this.getData("flowCodeSeenData")) this.raw("\n");
      state.inFlowCode = false;
      this.tag("</code></pre></div>");
    }
    if (count !== undefined && count < 2) this.lineEndingIfNeeded();
    this.setData("flowCodeSeenData");
    this.setData("fencesCount");
    this.setData("slurpOneLineEnding");
  }

  /**
   * micromark's list opening, except that a list nested in a tight item
   * follows the item's text directly (Zulip's `<li>text<ul>`, no newline).
   */
  function openList(this: CompileContext, token: Token, tagName: "ol" | "ul"): void {
    const tightStack = this.getData("tightStack");
    const inTightItem = tightStack.length > 0 && tightStack[tightStack.length - 1];
    tightStack.push(!token._loose);
    if (!inTightItem) this.lineEndingIfNeeded();
    this.tag(`<${tagName}`);
    this.setData("expectFirstItem", true);
  }

  return {
    enter: {
      listOrdered(this: CompileContext, token: Token) {
        openList.call(this, token, "ol");
      },
      listUnordered(this: CompileContext, token: Token) {
        openList.call(this, token, "ul");
      },
      codeFenced(this: CompileContext) {
        this.lineEndingIfNeeded();
        this.setData("fencesCount", 0);
        state.codeLanguage = undefined;
      },
      codeIndented(this: CompileContext) {
        this.lineEndingIfNeeded();
        openCode.call(this, undefined);
      },
      link() {
        state.links.push({ label: "", destination: "" });
      },
      resource(this: CompileContext) {
        // Line endings inside `(…)` are not output.
        this.buffer();
      },
      resourceDestinationString(this: CompileContext) {
        this.buffer();
        // Character references decoded, nothing escaped: we sanitize and
        // escape the URL ourselves.
        this.setData("ignoreEncode", true);
      },
      resourceTitleString(this: CompileContext) {
        this.buffer();
        state.inLinkTitle = true;
      },
      // micromark's paragraph opening, with the content buffered (see `exit.paragraph`).
      paragraph(this: CompileContext) {
        const tightStack = this.getData("tightStack");
        if (!tightStack[tightStack.length - 1]) this.lineEndingIfNeeded();
        this.setData("slurpAllLineEndings");
        state.dropLineEnding = false;
        state.paragraphPreviews.push([]);
        this.buffer();
      },
    },
    exit: {
      codeFencedFenceInfo(this: CompileContext, token: Token) {
        this.resume();
        state.codeLanguage = fenceLanguage(this.sliceSerialize(token));
      },
      codeFencedFence(this: CompileContext) {
        const count = this.getData("fencesCount") ?? 0;
        if (!count) {
          if (state.codeLanguage?.toLowerCase() === "math") {
            state.math = [];
          } else {
            openCode.call(this, state.codeLanguage);
          }
          this.setData("slurpOneLineEnding", true);
        }
        this.setData("fencesCount", count + 1);
      },
      codeFenced(this: CompileContext) {
        closeCode.call(this);
      },
      codeIndented(this: CompileContext) {
        closeCode.call(this);
      },
      codeFlowValue(this: CompileContext, token: Token) {
        // Zulip strips trailing whitespace from code lines.
        const value = this.sliceSerialize(token).replace(/[ \t]+$/, "");
        if (state.math) {
          state.math.push(value);
          return;
        }
        this.raw("\n".repeat(state.pendingCodeNewlines) + escapeCode(value));
        state.pendingCodeNewlines = 0;
        this.setData("flowCodeSeenData", true);
      },
      lineEnding(this: CompileContext, token: Token) {
        if (this.getData("slurpAllLineEndings")) return;
        if (state.dropLineEnding) {
          state.dropLineEnding = false;
          return;
        }
        if (this.getData("slurpOneLineEnding")) {
          this.setData("slurpOneLineEnding");
          return;
        }
        if (state.math) {
          state.math.push("\n");
          return;
        }
        if (state.inFlowCode) {
          // Pygments (Zulip's highlighter) strips blank lines at both ends of a
          // block: leading ones are dropped, the others wait for more code.
          if (this.getData("flowCodeSeenData")) state.pendingCodeNewlines++;
          return;
        }
        if (this.getData("inCodeText")) {
          this.raw(" ");
          return;
        }
        if (state.softBreaks.has(token)) this.tag("<br>");
        this.raw("\n");
      },
      /**
       * The paragraph (`<p>…</p>`, or bare text in a tight list item), then its
       * links' previews: Zulip inserts them right after the paragraph (inside
       * a list item, at its end), without a newline after them, and drops the
       * paragraph when its only content is the previewed link's URL.
       */
      paragraph(this: CompileContext) {
        const content = this.resume();
        const previews = state.paragraphPreviews.pop() ?? [];
        const tightStack = this.getData("tightStack");
        const tight = tightStack[tightStack.length - 1];
        const replaced = previews.length === 1 && previews[0].removable && content === previews[0].linkHtml;
        if (!replaced) {
          if (!tight) this.tag("<p>");
          this.raw(content);
          if (!tight) this.tag("</p>");
        }
        if (tight) this.setData("slurpAllLineEndings", true);
        if (previews.length === 0) return;
        if (!replaced && !tight) this.raw("\n");
        this.tag(previews.map((preview) => preview.html).join(""));
        // An empty chunk last: `lineEndingIfNeeded` then sees no preceding text
        // and adds no newline before the next block.
        this.raw("");
        // In a tight list item the line endings after the text are slurped already.
        if (!tight) state.dropLineEnding = true;
      },
      // nl2br already breaks every line; a trailing `\` or two spaces add nothing.
      hardBreakEscape() {},
      hardBreakTrailing() {},
      lineSuffix(this: CompileContext, token: Token) {
        if (state.keptTrailingSpaces.has(token)) this.raw(this.sliceSerialize(token));
      },
      thematicBreak(this: CompileContext) {
        this.lineEndingIfNeeded();
        this.tag("<hr>");
      },
      // Zulip keeps inline code exactly as typed: the space just inside each
      // backtick run (which CommonMark strips) stays.
      codeTextPadding(this: CompileContext) {
        this.raw(" ");
      },
      // Inline code escapes like text (`&`, `<`, `>`), leaving quotes as typed.
      codeTextData(this: CompileContext, token: Token) {
        this.raw(escapeText(this.sliceSerialize(token)));
      },
      data(this: CompileContext, token: Token) {
        const value = this.sliceSerialize(token);
        // Inside a link destination or title the text ends up in an attribute:
        // no markup there.
        if (this.getData("ignoreEncode") || state.inLinkTitle) {
          this.raw(this.encode(value));
          return;
        }
        // Like Zulip, text escapes only `&`, `<` and `>` (quotes stay as typed).
        this.raw(renderTextWithUnicodeEmoji(value, escapeText));
      },
      label(this: CompileContext) {
        const link = state.links[state.links.length - 1];
        if (link) link.label = this.resume();
        else this.resume();
      },
      labelText() {},
      resource(this: CompileContext) {
        this.resume();
      },
      resourceDestinationString(this: CompileContext) {
        const link = state.links[state.links.length - 1];
        const value = this.resume();
        if (link) link.destination = value;
        this.setData("ignoreEncode");
      },
      resourceTitleString(this: CompileContext) {
        state.inLinkTitle = false;
        const link = state.links[state.links.length - 1];
        const value = this.resume();
        if (link) link.title = value;
      },
      link(this: CompileContext, token: Token) {
        const link = state.links.pop();
        if (!link) return;
        const sanitized = sanitizeUrl(link.destination);
        if (sanitized === undefined) {
          // Zulip leaves a link with a refused scheme as the text that was typed
          // (escaped as text: quotes stay).
          this.raw(escapeText(this.sliceSerialize(token)));
          return;
        }
        const href = relativizeLocalUrl(sanitized, state.realmUrl);
        noteLink(href);
        const open = `<a href="${escapeHtml(href)}"${link.title ? ` title="${link.title}"` : ""}>`;
        const label = link.label.trim() === "" ? escapeHtml(href) : link.label;
        this.tag(open);
        this.raw(label);
        this.tag("</a>");
        notePreview(token, href, label === escapeHtml(href) ? href : leadingText(label), `${open}${label}</a>`);
      },
      literalAutolinkHttp(this: CompileContext, token: Token) {
        literalLink.call(this, token, "");
      },
      literalAutolinkWww(this: CompileContext, token: Token) {
        literalLink.call(this, token, "http://");
      },
      literalAutolinkEmail(this: CompileContext, token: Token) {
        literalLink.call(this, token, "mailto:");
      },
      zulipBareLink(this: CompileContext, token: Token) {
        // Inside a link's text it stays text (no link in a link), as in Zulip.
        if (state.links.length > 0) {
          this.raw(escapeText(this.sliceSerialize(token)));
          return;
        }
        literalLink.call(this, token, "http://");
      },
    },
  };
}
