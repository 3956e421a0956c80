import type { RealmEmojiRecord } from "../data/records/realm-emoji.js";
import { avatarObjectKeys } from "../storage/object-keys.js";

/** OpenAPI `RealmEmoji`: a custom emoji as `GET /realm/emoji`, register and the `realm_emoji` event give it. */
export interface RealmEmojiWire {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/**
 * The path (relative to the organization's URL) that serves an object of
 * the files bucket's `user_avatars` namespace: Zulip's `/user_avatars/<key>`
 * at the site root, the form Zulip's avatar and emoji URLs take (clients
 * resolve it against the organization's URL).
 */
export function userAvatarsPath(objectKey: string): string {
  return `/user_avatars/${objectKey}`;
}

/** A custom emoji's wire form (Zulip's `RealmEmoji` dict of `get_all_custom_emoji_for_realm`). */
export function realmEmojiToWire(e: RealmEmojiRecord): RealmEmojiWire {
  return {
    id: String(e.id),
    name: e.name,
    source_url: userAvatarsPath(avatarObjectKeys.emoji(e.realm_id, e.file_name)),
    still_url: e.is_animated ? userAvatarsPath(avatarObjectKeys.emojiStill(e.realm_id, e.file_name)) : null,
    deactivated: e.deactivated,
    author_id: e.author_id,
  };
}

/** Every custom emoji of a realm keyed by ID, as `realm_emoji` and `GET /realm/emoji` carry them. */
export function realmEmojiDict(list: readonly RealmEmojiRecord[]): Record<string, RealmEmojiWire> {
  const out: Record<string, RealmEmojiWire> = {};
  for (const e of [...list].sort((a, b) => a.id - b.id)) out[String(e.id)] = realmEmojiToWire(e);
  return out;
}

/**
 * Zulip's `check_valid_emoji_name`: lower-case ASCII letters, digits, `-`
 * and `_`, ending in a letter or digit.
 * @returns the error message, or undefined when the name is valid
 */
export function emojiNameError(name: string): string | undefined {
  if (name === "") return "Emoji name is missing";
  if (/^[0-9a-z\-_]+$/.test(name)) {
    return /[\-_]$/.test(name) ? "Emoji names must end with either a letter or digit." : undefined;
  }
  return "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.";
}
