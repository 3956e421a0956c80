import type { Deps } from "../../deps.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByNames } from "../../data/streams.js";
import { listRealmEmoji } from "../../data/realm-emoji.js";
import { realmEmojiToWire } from "../../domain/realm-emoji.js";
import { getUsersByIds, listRealmMembers } from "../../data/users.js";
import { apiEmail, realmUrl } from "../../domain/email.js";
import { JsonableError } from "../../errors.js";
import {
  loadCodeHighlighter,
  loadFreeFormTimeParser,
  loadMarkdownRenderer,
  mayHaveCodeFence,
  mayHaveGlobalTime,
} from "../../markdown/load.js";
import { scanReferences } from "../../markdown/references.js";
import type { RenderResult } from "../../markdown/types.js";
import { loadRealmGroups, type RealmGroups } from "../../access/user-group.js";
import { checkUserGroupMentionAllowed, groupMentionedUserIds } from "../user-groups/mentions.js";
import { attachmentsByPath } from "../../data/attachments.js";
import type { AttachmentRecord } from "../../data/records/attachment.js";
import { uploadPreviewOf } from "../../domain/thumbnails.js";
import { MAX_CLAIMS_PER_MESSAGE } from "../uploads/claim.js";
import { realmLinkifiers } from "../../data/linkifiers.js";
import type { LinkifierRecord } from "../../data/records/linkifier.js";
import { camoPath } from "../../camo.js";

/** A rendering and the uploads its content links (read for previews; claiming reuses them). */
export interface RenderedContent extends RenderResult {
  /** The organization's attachments at the linked `/user_uploads/` paths (at most {@link MAX_CLAIMS_PER_MESSAGE}). */
  uploads: AttachmentRecord[];
  /** The organization's linkifiers in its order, as read for this rendering (the message's `topic_links` use them too). */
  linkifiers: LinkifierRecord[];
}

/**
 * Largest rendered content accepted (UTF-8 bytes). Zulip refuses renderings
 * over 100 × its 10,000-character message limit; ours must fit a DynamoDB
 * item (400 KB) beside the source, and again in the `message` event item
 * (source and rendering) and in a content edit's history entry (the
 * previous rendering beside the new one), so 160 KiB.
 */
export const MAX_RENDERED_CONTENT_BYTES = 160 * 1024;

/**
 * Renders message content for sending or editing: finds what it refers to
 * (`scanReferences`), fetches only that — the realm's users only when a
 * mention is by name, users by ID for `@**Name|id**`, linked streams by
 * name, the realm's groups for `@*group*`, the linked uploads of the
 * organization (for their image previews), the organization's linkifiers
 * (one GetItem of their single item, always: any text may match) — and
 * renders it. At most two round trips, in parallel; the renderer module loads beside them on the
 * first rendering of the process (`markdown/load.ts`).
 *
 * Group mentions (`@*group*`; a silent `@_*group*` notifies nobody): the
 * members of each mentioned group, recursively through subgroups, join
 * `mentionedUserIds`, so every path that sets the `mentioned` flag from it
 * (send, the large-stream expansion, edit) flags them too. With `sender`,
 * each mentioned group's `can_mention_group` must include the sender, and
 * the sender's `translate_emoticons` setting turns `:)` into 🙂.
 * @throws JsonableError `You are not allowed to mention user group '<name>'.`
 * @throws JsonableError `Unable to render message` (Zulip's wording for a
 *   failed rendering) when the HTML exceeds {@link MAX_RENDERED_CONTENT_BYTES}
 */
export async function renderMessageContent(
  deps: Deps,
  realm: RealmRecord,
  content: string,
  sender?: UserRecord,
): Promise<RenderedContent> {
  const renderer = loadMarkdownRenderer();
  const refs = scanReferences(content);
  const usersPromise: Promise<UserRecord[]> =
    refs.userNames.length > 0
      ? listRealmMembers(deps, realm.id)
      : refs.userIds.length > 0
        ? getUsersByIds(deps, realm.id, refs.userIds).then((m) => [...m.values()])
        : Promise.resolve([]);
  // Batched (one BatchGet per 100 distinct names, then per 100 streams), so
  // a message of a thousand `#**stream**` links costs two rounds, not a
  // thousand reads.
  const streamsPromise: Promise<StreamRecord[]> = getStreamsByNames(deps, realm.id, refs.streamNames).then((found) => [
    ...found.values(),
  ]);
  // Group mentions read the realm's groups (one round, beside the others) only when the content has one.
  const groupsPromise: Promise<RealmGroups | undefined> =
    refs.groupNames.length > 0 ? loadRealmGroups(deps, realm.id) : Promise.resolve(undefined);
  // Custom emoji (`:name:`) read the realm's emoji (one Query, beside the others) only when the content may have one.
  const emojiPromise = /:[\w+-]+:/.test(content) ? listRealmEmoji(deps, realm.id) : Promise.resolve([]);
  // Linked uploads (one BatchGet, beside the others) only when the content names one of this organization.
  const ownUploads = refs.uploadPathIds.filter((p) => p.startsWith(`${realm.id}/`)).slice(0, MAX_CLAIMS_PER_MESSAGE);
  const uploadsPromise = ownUploads.length > 0 ? attachmentsByPath(deps, realm.id, ownUploads) : Promise.resolve([]);
  // The code highlighter (its own chunk) only for content with a code fence.
  const highlighterPromise = mayHaveCodeFence(content) ? loadCodeHighlighter() : Promise.resolve(undefined);
  // The free-form time reader (its own chunk) only for content with a global time.
  const timeParserPromise = mayHaveGlobalTime(content) ? loadFreeFormTimeParser() : Promise.resolve(undefined);
  const [linkifiers, users, streams, groups, realmEmoji, uploads, { renderMarkdown }, highlighter, timeParser] = await Promise.all([
    realmLinkifiers(deps, realm.id).then((r) => r.linkifiers),
    usersPromise,
    streamsPromise,
    groupsPromise,
    emojiPromise,
    uploadsPromise,
    renderer,
    highlighterPromise,
    timeParserPromise,
  ]);
  const camoKey = deps.config.CAMO_KEY;
  const uploadPreviews = new Map(
    uploads.flatMap((a) => {
      const preview = uploadPreviewOf(a);
      return preview ? [[a.path_id, preview] as const] : [];
    }),
  );
  // Private streams are linkable by name as in Zulip: the link reveals nothing
  // the sender does not already know by name.
  const rendered = renderMarkdown(content, {
    users: users.map((u) => ({
      id: u.user_id,
      full_name: u.full_name,
      email: apiEmail(u, realm, deps.config),
      is_active: u.is_active,
    })),
    groups: groups ? [...groups.graph.values()].map((g) => ({ id: g.id, name: g.name, member_ids: g.members })) : [],
    streams: streams.map((s) => ({ id: s.stream_id, name: s.name })),
    realmEmoji: realmEmoji.map((e) => realmEmojiToWire(e)),
    realmUrl: realmUrl(realm, deps.config),
    realmId: realm.id,
    uploadPreviews,
    linkifiers,
    // Zulip translates emoticons by the sender's `translate_emoticons` setting.
    highlightCode: highlighter?.highlightCode,
    parseFreeFormTime: timeParser?.parseFreeFormTime,
    // External image previews load through this server's camo proxy when it has a key.
    externalImageUrl: camoKey ? (url) => camoPath(camoKey, url) : undefined,
    // Off unless the sender turned it on (its default is false), read without the settings table in this bundle.
    translateEmoticons: sender?.settings.translate_emoticons === true,
  });
  if (Buffer.byteLength(rendered.html, "utf8") > MAX_RENDERED_CONTENT_BYTES) throw new JsonableError("Unable to render message");
  if (!groups || rendered.mentionedGroupIds.length === 0) return { ...rendered, uploads, linkifiers };
  if (sender) checkUserGroupMentionAllowed(groups, sender, rendered.mentionedGroupIds);
  return { ...rendered, uploads, linkifiers, mentionedUserIds: groupMentionedUserIds(groups, rendered) };
}

/** The fields of a message record that rendering decides (set on send and on every content edit). */
export function renderedMessageFields(
  rendered: RenderResult,
): Pick<
  MessageRecord,
  | "rendered_content"
  | "rendered_content_version"
  | "is_me_message"
  | "has_link"
  | "has_image"
  | "has_attachment"
  | "mentioned_user_ids"
  | "mentioned_group_ids"
  | "wildcard_mentioned"
> {
  return {
    rendered_content: rendered.html,
    rendered_content_version: rendered.renderedVersion,
    is_me_message: rendered.isMeMessage,
    has_link: rendered.hasLink,
    has_image: rendered.hasImage,
    has_attachment: rendered.hasAttachment,
    mentioned_user_ids: rendered.mentionedUserIds,
    mentioned_group_ids: rendered.mentionedGroupIds,
    wildcard_mentioned: rendered.mentionsStreamWildcard || rendered.mentionsTopicWildcard,
  };
}
