import { emojiChar } from "../../model/emoji/catalog.js";
import { realmEmojiUrl, type RealmEmoji } from "../../model/realm-emoji.js";

/**
 * One emoji as a reaction or the picker draws it: a custom emoji
 * (`realm_emoji`) as its image, a Unicode one as its character, anything
 * else (Zulip's extra emoji, an unknown custom one) as `:name:`. Decorative:
 * the control around it carries the name.
 * @param url a custom emoji's image when the caller has it; otherwise looked up in `realmEmoji` by `code`
 */
export function EmojiGlyph(props: {
  name: string;
  code: string;
  reactionType: string;
  url?: string;
  realmEmoji?: ReadonlyMap<string, RealmEmoji>;
}) {
  if (props.reactionType === "realm_emoji") {
    const url = props.url ?? (props.realmEmoji ? realmEmojiUrl(props.realmEmoji, props.code) : undefined);
    if (url) return <img class="emoji-image" src={url} alt="" width={20} height={20} loading="lazy" decoding="async" />;
  }
  const char = props.reactionType === "unicode_emoji" ? emojiChar(props.code) : null;
  return <span class="emoji-char">{char ?? `:${props.name}:`}</span>;
}
