import type { Deps } from "../deps.js";
import { listRealmEmoji } from "../data/realm-emoji.js";
import { realmEmojiDict, type RealmEmojiWire } from "../domain/realm-emoji.js";

/**
 * Every custom emoji of a realm, active and deactivated, keyed by ID: the
 * `emoji` of `GET /realm/emoji` (https://zulip.com/api/get-custom-emoji) and
 * `realm_emoji` of `POST /register` (Zulip's `Realm.get_emoji`, public to
 * every user of the organization). One Query.
 */
export async function realmEmojiState(deps: Deps, realmId: number): Promise<Record<string, RealmEmojiWire>> {
  return realmEmojiDict(await listRealmEmoji(deps, realmId));
}
