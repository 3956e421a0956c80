import type { Deps } from "../deps.js";
import { listRealmEmoji } from "../data/realm-emoji.js";
import type { ReactionType } from "../data/records/reaction.js";
import type { RealmEmojiRecord } from "../data/records/realm-emoji.js";
import { normalizeEmojiCode } from "../emoji/codes.js";
import { loadEmojiNames } from "../emoji/load.js";
import { JsonableError } from "../errors.js";

/*
 * Emoji lookups that reactions (https://zulip.com/api/add-reaction) and
 * user statuses (https://zulip.com/api/update-status) share: Zulip's
 * `get_emoji_data` and `check_emoji_request`.
 */

/** The only `zulip_extra_emoji` Zulip has. */
const EXTRA_EMOJI = "zulip";

/** What emoji resolution needs of a realm's custom emoji (`RealmEmojiRecord`). */
export type RealmEmojiLookup = readonly Pick<RealmEmojiRecord, "id" | "name" | "deactivated">[];

/**
 * Zulip's `get_emoji_data`: the code and type of an emoji name. An active
 * custom emoji of the name wins (its ID is the code), then Zulip's extra
 * emoji, then the Unicode names.
 * @param realmEmoji the realm's custom emoji (see {@link needsRealmEmoji})
 * @throws JsonableError `Emoji '<name>' does not exist`
 */
export async function emojiDataForName(name: string, realmEmoji: RealmEmojiLookup): Promise<{ code: string; type: ReactionType }> {
  const custom = realmEmoji.find((e) => e.name === name && !e.deactivated);
  if (custom) return { code: String(custom.id), type: "realm_emoji" };
  if (name === EXTRA_EMOJI) return { code: EXTRA_EMOJI, type: "zulip_extra_emoji" };
  const code = (await loadEmojiNames()).emojiCodeForName(name);
  if (code === undefined) throw new JsonableError(`Emoji '${name}' does not exist`);
  return { code, type: "unicode_emoji" };
}

/**
 * Whether resolving or checking an emoji reads the realm's custom emoji:
 * when the name must be looked up (no code or type given) or the type is
 * `realm_emoji`. Otherwise the Query is skipped.
 */
export function needsRealmEmoji(code: string | undefined, type: string | undefined): boolean {
  return code === undefined || type === undefined || type === "realm_emoji";
}

/** The realm's custom emoji when {@link needsRealmEmoji} says so; else none (no read). */
export async function realmEmojiFor(deps: Deps, realmId: number, code: string | undefined, type: string | undefined): Promise<RealmEmojiLookup> {
  return needsRealmEmoji(code, type) ? listRealmEmoji(deps, realmId) : [];
}

/**
 * Zulip's `check_emoji_request`: a name, code and type that agree. A custom
 * emoji's code is its ID; a deactivated one is refused for new reactions
 * and statuses.
 * @throws JsonableError `Invalid emoji code.`, `Invalid emoji name.`, `Invalid custom emoji.`,
 *   `Invalid custom emoji name.`, `This custom emoji has been deactivated.`, `Invalid emoji type.`
 */
export async function checkEmojiRequest(name: string, code: string, type: string, realmEmoji: RealmEmojiLookup): Promise<void> {
  if (type === "realm_emoji") {
    const custom = realmEmoji.find((e) => String(e.id) === code);
    if (!custom) throw new JsonableError("Invalid custom emoji.");
    if (custom.name !== name) throw new JsonableError("Invalid custom emoji name.");
    if (custom.deactivated) throw new JsonableError("This custom emoji has been deactivated.");
    return;
  }
  if (type === "zulip_extra_emoji") {
    if (code !== EXTRA_EMOJI) throw new JsonableError("Invalid emoji code.");
    if (name !== code) throw new JsonableError("Invalid emoji name.");
    return;
  }
  if (type === "unicode_emoji") {
    const names = await loadEmojiNames();
    if (names.emojiNameForCode(code) === undefined) throw new JsonableError("Invalid emoji code.");
    if (names.emojiCodeForName(name) !== normalizeEmojiCode(code)) throw new JsonableError("Invalid emoji name.");
    return;
  }
  throw new JsonableError("Invalid emoji type.");
}
