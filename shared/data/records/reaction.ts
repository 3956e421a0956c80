/** The reaction types Zulip knows (https://zulip.com/api/add-reaction, `reaction_type`). */
export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

/**
 * One emoji reaction as stored in its message item's `reactions` list: the
 * wire shape of a message's `reactions` entries (OpenAPI `EmojiReaction`,
 * with the deprecated `user` object).
 */
export interface ReactionRecord {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
  user: { id: number; email: string; full_name: string; is_mirror_dummy: boolean };
}
