/** The reaction types Zulip knows (https://zulip.com/api/add-reaction, `reaction_type`). */
export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

/**
 * One emoji reaction in its wire shape: an entry of a message's `reactions`
 * (OpenAPI `EmojiReaction`, with the deprecated `user` object), and the
 * value stored under its key in the message item's `reactions` map.
 */
export interface ReactionRecord {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
  user: { id: number; email: string; full_name: string; is_mirror_dummy: boolean };
}

/**
 * The reaction attributes of a message item (docs/data-model.md
 * "Reactions"; written only by `shared/data/reactions.ts`). Keys of both
 * maps are `<user_id>|<reaction_type>|<emoji_code>`.
 */
export interface MessageReactions {
  /** Each reaction, by key. */
  reactions: Record<string, ReactionRecord>;
  /** Each reaction's place among the message's reactions (the value `reaction_seq` took when it was added), by key. */
  reaction_order: Record<string, number>;
  /** How many reactions the message was ever given (removals do not lower it). */
  reaction_seq: number;
}
