/**
 * The organization's custom emoji (https://zulip.com/help/custom-emoji), as
 * `POST /register` gives them in `realm_emoji` and `realm_emoji` events
 * (https://zulip.com/api/get-events#realm_emoji-update) replace them.
 */
import type { ServerEvent } from "./types.js";

/** One custom emoji (OpenAPI `RealmEmoji`): `id` is its `emoji_code` in reactions. */
export type RealmEmoji = Extract<ServerEvent, { type: "realm_emoji" }>["realm_emoji"][string];

/** Custom emoji by ID, from register's `realm_emoji` object (absent: none). */
export function realmEmojiFromRegister(raw: unknown): Map<string, RealmEmoji> {
  return new Map(Object.values((raw as Record<string, RealmEmoji> | undefined) ?? {}).map((e) => [String(e.id), e]));
}

/** A `realm_emoji` `update` event: the organization's whole custom emoji list. */
export function applyRealmEmojiEvent(event: Extract<ServerEvent, { type: "realm_emoji" }>): Map<string, RealmEmoji> {
  return realmEmojiFromRegister(event.realm_emoji);
}

/**
 * The image of a custom-emoji reaction (`reaction_type: "realm_emoji"`,
 * `emoji_code` the emoji's ID); a deactivated one still shows on old
 * reactions, as in Zulip. Undefined when unknown.
 */
export function realmEmojiUrl(realmEmoji: ReadonlyMap<string, RealmEmoji>, code: string): string | undefined {
  return realmEmoji.get(code)?.source_url;
}
