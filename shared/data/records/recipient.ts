/**
 * What a recipient ID stands for (Zulip's Recipient). Streams carry their
 * recipient ID on the stream record; this item exists for conversations
 * (sets of users), written together with the set's `DMSET#` claim.
 */
export interface RecipientRecord {
  recipient_id: number;
  realm_id: number;
  /** `direct`: a private conversation between {@link RecipientRecord.user_ids}. */
  recipient_type: "direct";
  /** Sorted IDs of every participant (sender included). */
  user_ids: number[];
}
