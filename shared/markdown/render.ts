/**
 * Zulip-flavoured Markdown → Zulip's `rendered_content` HTML.
 *
 * Pipeline: micromark (CommonMark) + GFM autolink literals and tables, plus
 * our syntax extensions for Zulip's constructs (mentions, channel/topic
 * links, emoji, global times, inline TeX, `_` as text, ```` ```quote ```` /
 * ```` ```spoiler ```` containers, bare-domain links, Zulip's list rules and
 * `~~strikethrough~~` that may have spaces inside); then one event pass
 * (`annotate.ts`); then micromark's HTML compiler with our HTML extensions
 * producing Zulip's markup. Nothing is regex-replaced in the HTML.
 *
 * Safety: raw HTML is never passed through (the HTML constructs are disabled,
 * so `<script>` is text), link schemes are allow-listed (`javascript:` and
 * `data:` links stay text), every attribute value is escaped, and code spans
 * and blocks are opaque to mentions, emoji and links.
 *
 * Differences from Zulip's server we know of: no syntax highlighting in code
 * blocks (Zulip runs Pygments; clients render plain code fine), image
 * previews but no video previews, link embeds or thumbnails (`previews.ts`:
 * external images are never fetched, a preview of an upload shows the
 * upload itself), linkifiers as `linkifier-events.ts` says, `<time:…>` reads
 * free-form dates only when given `parseFreeFormTime`, continuation lines
 * lose their leading spaces (trailing ones stay only at a paragraph's end), `~~…~~` may span lines (Zulip's
 * stops at a line end), a link with a refused scheme stays plain text without
 * linking bare domains inside it, `topicLinks` (`topic-links.ts`) does not find bare
 * domains (only `http(s)://` and `www.`), and Unicode emoji names follow
 * iamcal's except for the common names Zulip renames
 * (`shared/emoji/zulip-names.ts`). Lists follow Zulip's rules:
 * 2-space nesting for bullets and numbers, `*`/`-`/`+` items in one list,
 * any item may follow a text line (`constructs/list.ts`).
 *
 * @see https://zulip.com/help/format-your-message-using-markdown
 * @see https://zulip.com/api/rendered-content (markup the clients expect)
 */
import { compile, parse, postprocess, preprocess } from "micromark";
import { gfmAutolinkLiteral } from "micromark-extension-gfm-autolink-literal";
import { gfmStrikethroughHtml } from "micromark-extension-gfm-strikethrough";
import { gfmTable, gfmTableHtml } from "micromark-extension-gfm-table";
import type { Extension } from "micromark-util-types";
import { annotateEvents } from "./annotate.js";
import { bareDomainSyntax } from "./constructs/bare-domain.js";
import { zulipBlockQuoteSyntax } from "./constructs/block-quote.js";
import { zulipCodeFenceSyntax } from "./constructs/code-fence.js";
import { coreHtml } from "./constructs/core-html.js";
import { emojiExtensions } from "./constructs/emoji.js";
import { emoticonExtensions } from "./constructs/emoticon.js";
import { fenceContainerHtml, fenceContainerSyntax } from "./constructs/fence-container.js";
import { zulipListSyntax } from "./constructs/list.js";
import { zulipStrikethroughSyntax } from "./constructs/strikethrough.js";
import { mentionExtensions } from "./constructs/mention.js";
import { streamLinkExtensions } from "./constructs/stream-link.js";
import { texExtensions } from "./constructs/tex.js";
import { timestampExtensions } from "./constructs/timestamp.js";
import { underscoreHtml, underscoreSyntax } from "./constructs/underscore.js";
import "./constructs/micromark-augment.js";
import { linkifierHtml, linkifyEvents } from "./linkifier-events.js";
import { compileLinkifiers, type CompiledLinkifier } from "./linkifiers.js";
import { INLINE_PREVIEW_LIMIT } from "./previews.js";
import { scanReferences } from "./references.js";
import { RenderState } from "./render-state.js";
import type { References, RenderLookups, RenderResult, WildcardKind } from "./types.js";

export type {
  LinkableStream,
  MentionableGroup,
  MentionableUser,
  RealmEmoji,
  References,
  RenderLookups,
  RenderResult,
  WildcardKind,
} from "./types.js";

/** Zulip's `rendered_content_version` analogue for our renderer; bump when the HTML for the same input changes. */
export const RENDERED_VERSION = 3;

/**
 * CommonMark constructs Zulip does not have: raw HTML (unsafe; shown as
 * text), `<url>` autolinks (Zulip links bare URLs instead), reference
 * definitions (no use in chat), image syntax (`![x](y)` shows `!` and a link),
 * setext headings (only `#` headings).
 */
const disableUnsupported: Extension = {
  disable: { null: ["autolink", "htmlFlow", "htmlText", "definition", "labelStartImage", "setextUnderline"] },
};

// Stateless syntax extensions, built once.
const staticSyntax: Extension[] = [
  gfmAutolinkLiteral(),
  bareDomainSyntax,
  zulipStrikethroughSyntax,
  gfmTable(),
  disableUnsupported,
  zulipCodeFenceSyntax,
  zulipBlockQuoteSyntax,
  underscoreSyntax,
  zulipListSyntax,
];
const timestamp = timestampExtensions();
const emoticon = emoticonExtensions();

/**
 * Finds the user names/ids, group names and channel names `content` refers
 * to (`@**Name**`, `@**Name|12**`, `@*group*`, `#**channel**`,
 * `#**channel>topic**`) and whether it uses a wildcard, without parsing
 * Markdown. Over-approximates (includes names inside code); fetch these,
 * then call {@link renderMarkdown}.
 */
export function collectReferences(content: string): References {
  return scanReferences(content);
}

/**
 * Renders a message's Markdown `content` to Zulip's HTML and reports what it
 * mentions and contains.
 *
 * Synchronous and offline: everything it resolves comes from `lookups`
 * (fetch them with the help of {@link collectReferences}). Names resolve
 * case-insensitively; `@**Name|id**` by id. Unknown mentions, channels and
 * emoji render as the text typed. Mentions inside quotes are silent;
 * deactivated users' mentions are silent.
 *
 * @param content Message content (Markdown); `\r\n` and `\r` are treated as `\n`.
 * @param lookups Users, groups, channels, realm emoji and the realm URL.
 * @returns HTML plus mention and content flags (see {@link RenderResult}).
 * @example
 * renderMarkdown("hi @**Iago**", { users: [{ id: 5, full_name: "Iago" }], groups: [], streams: [], realmEmoji: [], realmUrl: "https://zulip.example.com" }).html
 * // '<p>hi <span class="user-mention" data-user-id="5">@Iago</span></p>'
 */
export function renderMarkdown(content: string, lookups: RenderLookups): RenderResult {
  const normalized = content.replace(/\r\n?/g, "\n");
  const linkifiers = compileLinkifiers(lookups.linkifiers ?? []);
  let state = new RenderState(lookups);
  let html = renderHtml(normalized, state, linkifiers);
  // Zulip previews nothing in a message linking more distinct URLs than its limit.
  if (state.previewUrls.size > INLINE_PREVIEW_LIMIT && state.hasImage) {
    state = new RenderState(lookups, false);
    html = renderHtml(normalized, state, linkifiers);
  }

  const streamWildcard = state.wildcards.find((kind) => kind !== "topic");
  const topicWildcard = state.wildcards.includes("topic");
  const wildcardMention: WildcardKind | null = streamWildcard ?? (topicWildcard ? "topic" : null);
  return {
    html,
    mentionedUserIds: [...state.mentionedUserIds],
    mentionedGroupIds: [...state.mentionedGroupIds],
    wildcardMention,
    mentionsStreamWildcard: streamWildcard !== undefined,
    mentionsTopicWildcard: topicWildcard,
    // Zulip's Message.is_status_message: a one-line `/me …` whose rendering is a single paragraph.
    isMeMessage: normalized.startsWith("/me ") && !normalized.includes("\n") && html.startsWith("<p>") && html.endsWith("</p>"),
    hasLink: state.hasLink,
    hasImage: state.hasImage,
    hasAttachment: state.attachmentPathIds.size > 0,
    attachmentPathIds: [...state.attachmentPathIds],
    thumbnailPendingPathIds: [...state.thumbnailPending],
    renderedVersion: RENDERED_VERSION,
  };
}

/** Parses, annotates, linkifies and compiles `normalized` with `state`; previews placed at the end are appended. */
function renderHtml(normalized: string, state: RenderState, linkifiers: readonly CompiledLinkifier[]): string {
  const mention = mentionExtensions(state);
  const streamLink = streamLinkExtensions(state);
  const emoji = emojiExtensions(state);
  const tex = texExtensions(state);
  // The syntax is shared; the HTML reads free-form times only when this render was given a reader.
  const timestampHtml = state.parseFreeFormTime ? timestampExtensions(state.parseFreeFormTime).html : timestamp.html;

  // Later extensions take precedence for the same character, so ours come
  // after GFM's.
  const extensions: Extension[] = [...staticSyntax, fenceContainerSyntax(), mention.syntax, streamLink.syntax, emoji.syntax, timestamp.syntax, tex.syntax];
  if (state.translateEmoticons) extensions.push(emoticon.syntax);
  const events = postprocess(parse({ extensions }).document().write(preprocess()(normalized, undefined, true)));
  annotateEvents(events, state);
  state.source = normalized;
  const linkifierLinks = new WeakMap();
  linkifyEvents(events, normalized, linkifiers, state.realmUrl, linkifierLinks);
  const html = compile({
    htmlExtensions: [
      gfmStrikethroughHtml(),
      gfmTableHtml(),
      underscoreHtml,
      fenceContainerHtml(),
      mention.html,
      streamLink.html,
      emoji.html,
      timestampHtml,
      tex.html,
      emoticon.html,
      coreHtml(state),
      linkifierHtml(linkifierLinks, () => {
        state.hasLink = true;
      }),
    ],
  })(events).replace(/\n+$/, "");
  if (state.endPreviews.length === 0) return html;
  // Zulip appends these to the message's top level, after a newline.
  return `${html}${html === "" ? "" : "\n"}${state.endPreviews.join("")}`;
}
