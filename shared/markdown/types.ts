/**
 * Public shapes of the Markdown module (re-exported by `index.ts`).
 * @see https://zulip.com/help/format-your-message-using-markdown
 */

import type { Linkifier } from "./linkifiers.js";

/** A user that `@**Full Name**` / `@**Full Name|id**` can resolve to. */
export interface MentionableUser {
  id: number;
  full_name: string;
  email?: string;
  /** Deactivated users render as silent mentions and are not notified (Zulip). Default: active. */
  is_active?: boolean;
}

/** A user group that `@*group*` can resolve to. */
export interface MentionableGroup {
  id: number;
  name: string;
  member_ids: number[];
}

/** A channel that `#**name**` / `#**name>topic**` can link to. */
export interface LinkableStream {
  id: number;
  name: string;
}

/** A custom (realm) emoji usable as `:name:`. */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated?: boolean;
}

/** An uploaded image a message may preview (Zulip's `MarkdownImageMetadata`). */
export interface UploadPreview {
  /** The original's size in pixels, as displayed (`data-original-dimensions`). */
  width: number;
  height: number;
  /** The original is animated (`data-animated`). */
  animated: boolean;
  /** URL path of the thumbnail messages show; undefined while it is being made (a placeholder renders). */
  thumbnailUrl?: string;
}

/** What rendering needs to resolve; fetched by the caller before rendering. */
export interface RenderLookups {
  users: MentionableUser[];
  groups: MentionableGroup[];
  streams: LinkableStream[];
  realmEmoji: RealmEmoji[];
  /** The organization's base URL without trailing slash (Zulip `realm_url`), e.g. `https://acme.example.com`. */
  realmUrl: string;
  /** The organization's ID: only its own `/user_uploads/<realm_id>/…` images get previews. */
  realmId?: number;
  /**
   * The organization's linkifiers in its order (https://zulip.com/help/add-a-custom-linkifier);
   * none when missing. See `linkifier-events.ts`.
   */
  linkifiers?: readonly Linkifier[];
  /** False: no inline image previews (Zulip's `no_previews`, for stream descriptions and profile fields). Default true. */
  previews?: boolean;
  /**
   * The organization's uploads the content links that are images, by path
   * ID (Zulip's `user_upload_previews`). When given, a `/user_uploads/…`
   * link gets a preview exactly when its upload is here, whatever its file
   * name (an image is known by its bytes); when absent, by file extension.
   */
  uploadPreviews?: ReadonlyMap<string, UploadPreview>;
  /** The sender's `translate_emoticons` setting: `:)` renders as the `smile` emoji. Default false. */
  translateEmoticons?: boolean;
  /**
   * Syntax highlighting of code blocks (`highlight/highlight.ts`'s
   * `highlightCode`, loaded on demand through `load.ts`): the HTML inside
   * `<code>` for a block's text and fence language, or undefined to write
   * it plain. Absent: no block is highlighted.
   */
  highlightCode?: (code: string, language: string | undefined) => string | undefined;
  /**
   * Reads a free-form `<time:…>` text (`Jun 5th 2017, 10:30PM`) as a UTC
   * instant in milliseconds, or undefined (`free-form-time.ts`'s
   * `parseFreeFormTime`, loaded on demand through `load.ts`). Absent: only
   * ISO 8601 and Unix seconds are read.
   */
  parseFreeFormTime?: (text: string) => number | undefined;
  /**
   * The URL an external image preview loads through (the camo proxy,
   * `shared/camo.ts`'s `camoPath` with the server's key). Absent: the
   * image's own URL.
   */
  externalImageUrl?: (url: string) => string;
}

/** Names/IDs the content refers to, found by a cheap pre-scan, so the caller can fetch only those. */
export interface References {
  /** Names in `@**Name**` / `@_**Name**` (wildcards excluded), as typed. Match case-insensitively. */
  userNames: string[];
  /** IDs in `@**Name|id**` / `@**|id**`. */
  userIds: number[];
  /** Names in `@*group*` / `@_*group*`, as typed. */
  groupNames: string[];
  /** Channel names in `#**name**` and `#**name>topic**`, as typed. */
  streamNames: string[];
  /** Path IDs after `/user_uploads/` anywhere in the content (percent-decoded), for `RenderLookups.uploadPreviews`. */
  uploadPathIds: string[];
  /** Whether a wildcard (`@**all**`, `@**everyone**`, `@**stream**`, `@**channel**`, `@**topic**`) appears. */
  hasWildcard: boolean;
}

/** Stream-level wildcard kinds and the topic wildcard, as Zulip spells them. */
export type WildcardKind = "all" | "everyone" | "stream" | "channel" | "topic";

/** The result of {@link renderMarkdown}. */
export interface RenderResult {
  /** Zulip's `rendered_content`. */
  html: string;
  /** Direct (non-silent) mentions of active users, resolved; in order of first appearance, no duplicates. */
  mentionedUserIds: number[];
  /** Non-silent group mentions (the caller expands members). */
  mentionedGroupIds: number[];
  /**
   * The first non-silent wildcard kind: a stream wildcard (`all`, `everyone`,
   * `stream`, `channel`) if any, else `topic`, else `null`.
   */
  wildcardMention: WildcardKind | null;
  /** Zulip's `mentions_stream_wildcard`: a non-silent `all`/`everyone`/`stream`/`channel`. */
  mentionsStreamWildcard: boolean;
  /** Zulip's `mentions_topic_wildcard`: a non-silent `@**topic**`. */
  mentionsTopicWildcard: boolean;
  /** Zulip's `is_me_message`: content starts with `/me ` on a single line. */
  isMeMessage: boolean;
  /** A link (Markdown link or bare URL) was rendered. */
  hasLink: boolean;
  /** Zulip's `has_image`: an inline image preview was rendered (an uploaded or linked image). */
  hasImage: boolean;
  /** An uploaded file (`/user_uploads/…`) is linked. */
  hasAttachment: boolean;
  /** `/user_uploads/` path ids linked (e.g. `2/ab/xyz/file.png`), for claiming attachments. */
  attachmentPathIds: string[];
  /** Path IDs of uploads previewed with a placeholder: their thumbnails are not made yet (Zulip's `thumbnail_spinners`). */
  thumbnailPendingPathIds: string[];
  /** Zulip's `rendered_content_version` analogue: bump when output changes for the same input. */
  renderedVersion: number;
}
