/**
 * The cheap pre-scan behind `collectReferences`: finds the names and ids a
 * message may mention or link, so the caller fetches only those users,
 * groups and channels before rendering. It over-approximates (it does not
 * know about code blocks or escapes); rendering decides what really resolves.
 */
import { STREAM_WILDCARDS, TOPIC_WILDCARD } from "./render-state.js";
import type { References } from "./types.js";
import { uploadPathId } from "./url.js";

// Zulip's BEFORE_MENTION_ALLOWED_REGEX: start, whitespace or one of '"({[/<.
const BEFORE = String.raw`(?<![^\s'"({[/<])`;
const USER_MENTION = new RegExp(`${BEFORE}@_?\\*\\*([^*\\r\\n]+)\\*\\*`, "g");
const GROUP_MENTION = new RegExp(`${BEFORE}@_?\\*([^*\\r\\n]+)\\*`, "g");
const STREAM_LINK = new RegExp(`${BEFORE}#\\*\\*([^*\\r\\n]+)\\*\\*`, "g");
const ID_SYNTAX = /^(.+)?\|(\d+)$/s;
// Upload paths wherever they appear (Zulip's `get_user_upload_previews` scan): the
// characters of sanitized file names (shared/domain/uploads.ts) and percent escapes.
const UPLOAD_PATH = /\/user_uploads\/(\d+\/[\p{L}\p{N}\p{M}_.\/%-]+)/gu;

/** See {@link References}. Runs in time linear in the content. */
export function scanReferences(content: string): References {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  const groupNames = new Set<string>();
  const streamNames = new Set<string>();
  let hasWildcard = false;
  for (const [, name] of content.matchAll(USER_MENTION)) {
    if (STREAM_WILDCARDS.has(name) || name === TOPIC_WILDCARD) {
      hasWildcard = true;
      continue;
    }
    const idSyntax = ID_SYNTAX.exec(name);
    if (idSyntax) {
      const id = Number(idSyntax[2]);
      if (Number.isSafeInteger(id)) userIds.add(id);
    } else {
      userNames.add(name);
    }
  }
  for (const [, name] of content.matchAll(GROUP_MENTION)) groupNames.add(name);
  for (const [, inner] of content.matchAll(STREAM_LINK)) {
    streamNames.add(inner);
    const separator = inner.indexOf(">");
    if (separator > 0) streamNames.add(inner.slice(0, separator));
  }
  const uploadPathIds = new Set<string>();
  for (const [, path] of content.matchAll(UPLOAD_PATH)) {
    // A sentence's full stop may follow a bare URL, which then ends before it; a name may end in `.` too.
    for (const candidate of new Set([path, path.replace(/\.+$/, "")])) {
      uploadPathIds.add(uploadPathId(`/user_uploads/${candidate}`) ?? candidate);
    }
  }
  return {
    uploadPathIds: [...uploadPathIds],
    userNames: [...userNames],
    userIds: [...userIds],
    groupNames: [...groupNames],
    streamNames: [...streamNames],
    hasWildcard,
  };
}
