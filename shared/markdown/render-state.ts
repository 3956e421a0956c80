/**
 * Per-render state shared by the tokenizers (which only ask "does this
 * resolve?") and the HTML handlers (which resolve again and record results).
 * Tokenizers may run inside attempts that are later undone, so nothing is
 * recorded while tokenizing.
 */
import type { Token } from "micromark-util-types";
import type { PendingPreview } from "./previews.js";
import type {
  LinkableStream,
  MentionableGroup,
  MentionableUser,
  RealmEmoji,
  RenderLookups,
  UploadPreview,
  WildcardKind,
} from "./types.js";

/** Zulip's stream-level wildcards (`@**all**` etc.); matched exactly, lowercase. */
export const STREAM_WILDCARDS: ReadonlySet<string> = new Set(["all", "everyone", "stream", "channel"]);
/** Zulip's topic wildcard. */
export const TOPIC_WILDCARD = "topic";

export type UserMentionTarget =
  | { kind: "wildcard"; wildcard: WildcardKind }
  | { kind: "user"; user: MentionableUser };

export type StreamLinkTarget = { stream: LinkableStream; topic?: string };

/** `@**Name|123**` or `@**|123**`. */
const ID_SYNTAX = /^(.+)?\|(\d+)$/s;

/**
 * Most characters of KaTeX HTML one message may contain. A short formula
 * can expand to hundreds of kilobytes of markup (sixty of them made a
 * message of megabytes), and the rendered content is stored in the message
 * item and copied into every recipient's event; formulas past the budget
 * render as their source, as a formula KaTeX refuses does.
 */
export const MAX_TEX_HTML_LENGTH = 100_000;

/** A link being compiled (our own media stack: images and references are disabled). */
export interface OpenLink {
  label: string;
  destination: string;
  title?: string;
}

export class RenderState {
  private readonly usersByName = new Map<string, MentionableUser | null>();
  private readonly usersById = new Map<number, MentionableUser>();
  private readonly groupsByName = new Map<string, MentionableGroup>();
  private readonly streamsByName = new Map<string, LinkableStream>();
  private readonly realmEmojiByName = new Map<string, RealmEmoji>();
  readonly realmUrl: string;
  /** The normalized content being rendered (set before compiling): bare links look at what follows them. */
  source = "";
  /** The sender translates emoticons (`:)` → 🙂). */
  readonly translateEmoticons: boolean;
  /** See `RenderLookups.highlightCode`. */
  readonly highlightCode: RenderLookups["highlightCode"];
  /** See `RenderLookups.parseFreeFormTime`. */
  readonly parseFreeFormTime: RenderLookups["parseFreeFormTime"];
  /** See `RenderLookups.externalImageUrl`. */
  readonly externalImageUrl: RenderLookups["externalImageUrl"];

  // Results.
  readonly mentionedUserIds = new Set<number>();
  readonly mentionedGroupIds = new Set<number>();
  readonly wildcards: WildcardKind[] = [];
  readonly attachmentPathIds = new Set<string>();
  hasLink = false;
  hasImage = false;

  // Set by the event pass before compiling (see `annotate.ts`).
  /** Mention tokens inside a block quote: Zulip silences them. */
  readonly quotedMentions = new WeakSet<Token>();
  /** Line endings inside paragraph text: Zulip's nl2br turns them into `<br>`. */
  readonly softBreaks = new WeakSet<Token>();
  /** Trailing spaces that end a paragraph (Zulip keeps them in the HTML; micromark drops them). */
  readonly keptTrailingSpaces = new WeakSet<Token>();
  /**
   * Where a link's image preview would go: after its paragraph (the link sits
   * directly in a paragraph or tight list item) or at the end of the message
   * (inside emphasis, a heading, a table…). Links in quotes have no entry:
   * Zulip does not preview them.
   */
  readonly linkPlacement = new WeakMap<Token, "paragraph" | "end">();

  // Inline image previews (see `previews.ts`).
  /** The organization rendering the message (its uploads are previewed). */
  readonly realmId: number | undefined;
  /** False when re-rendering a message over the preview limit. */
  readonly previewsEnabled: boolean;
  /** Uploaded images by path ID (see `RenderLookups.uploadPreviews`). */
  readonly uploadPreviews: ReadonlyMap<string, UploadPreview> | undefined;
  /** Uploads previewed with a placeholder. */
  readonly thumbnailPending = new Set<string>();
  /** Distinct link URLs outside quotes, in order (previewed once each; counted for the limit). */
  readonly previewUrls = new Set<string>();
  /** Previews of the paragraphs being compiled, innermost last. */
  readonly paragraphPreviews: PendingPreview[][] = [];
  /** Previews that go at the end of the message. */
  readonly endPreviews: string[] = [];
  /** The line ending after a paragraph with previews is not output (Zulip's previews have no trailing newline). */
  dropLineEnding = false;

  // Compile-time scratch.
  readonly links: OpenLink[] = [];
  inLinkTitle = false;
  codeLanguage: string | undefined;
  /** The language of the code block being compiled (undefined: none given). */
  codeBlockLanguage: string | undefined;
  /** Inside a code block's `<code>` (fenced or indented, not math). */
  inFlowCode = false;
  /** Line endings inside a code block not yet written: dropped if only blank lines follow. */
  pendingCodeNewlines = 0;
  /** Collected TeX source while inside a ```` ```math ```` block. */
  math: string[] | undefined;
  /** KaTeX HTML still allowed in this message; see {@link MAX_TEX_HTML_LENGTH}. */
  texHtmlLeft = MAX_TEX_HTML_LENGTH;

  constructor(lookups: RenderLookups, previewsEnabled = true) {
    this.realmUrl = lookups.realmUrl.replace(/\/+$/, "");
    this.translateEmoticons = lookups.translateEmoticons === true;
    this.highlightCode = lookups.highlightCode;
    this.parseFreeFormTime = lookups.parseFreeFormTime;
    this.externalImageUrl = lookups.externalImageUrl;
    this.realmId = lookups.realmId;
    this.previewsEnabled = previewsEnabled && lookups.previews !== false;
    this.uploadPreviews = lookups.uploadPreviews;
    for (const user of lookups.users) {
      this.usersById.set(user.id, user);
      const key = user.full_name.toLowerCase();
      // Two users with the same name: `@**Name**` is ambiguous and does not
      // resolve (the sender must use `@**Name|id**`, as Zulip's typeahead does).
      const existing = this.usersByName.get(key);
      this.usersByName.set(key, existing === undefined || existing?.id === user.id ? user : null);
    }
    for (const group of lookups.groups) this.groupsByName.set(group.name.toLowerCase(), group);
    for (const stream of lookups.streams) this.streamsByName.set(stream.name.toLowerCase(), stream);
    for (const emoji of lookups.realmEmoji) {
      if (!emoji.deactivated) this.realmEmojiByName.set(emoji.name, emoji);
    }
  }

  /**
   * What `@**name**` refers to: a wildcard (exact lowercase spelling, checked
   * first as in Zulip), `Name|id` (the id decides; a given name must equal the
   * user's full name exactly), else the full name, case-insensitively.
   */
  resolveUserMention(name: string): UserMentionTarget | undefined {
    if (STREAM_WILDCARDS.has(name)) return { kind: "wildcard", wildcard: name as WildcardKind };
    if (name === TOPIC_WILDCARD) return { kind: "wildcard", wildcard: "topic" };
    const idSyntax = ID_SYNTAX.exec(name);
    if (idSyntax) {
      const user = this.usersById.get(Number(idSyntax[2]));
      if (!user) return undefined;
      if (idSyntax[1] !== undefined && idSyntax[1] !== user.full_name) return undefined;
      return { kind: "user", user };
    }
    const user = this.usersByName.get(name.toLowerCase());
    return user ? { kind: "user", user } : undefined;
  }

  /** The group `@*name*` refers to (case-insensitive). */
  resolveGroup(name: string): MentionableGroup | undefined {
    return this.groupsByName.get(name.toLowerCase());
  }

  /**
   * What `#**inner**` links to: `stream>topic` when the part before the first
   * `>` is a channel, else the whole text as a channel name (case-insensitive).
   */
  resolveStreamLink(inner: string): StreamLinkTarget | undefined {
    const separator = inner.indexOf(">");
    if (separator > 0 && separator < inner.length - 1) {
      const stream = this.streamsByName.get(inner.slice(0, separator).toLowerCase());
      if (stream) return { stream, topic: inner.slice(separator + 1) };
    }
    const stream = this.streamsByName.get(inner.toLowerCase());
    return stream ? { stream } : undefined;
  }

  /** An active realm emoji by exact name. */
  realmEmoji(name: string): RealmEmoji | undefined {
    return this.realmEmojiByName.get(name);
  }
}
