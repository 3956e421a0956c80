import type { Store } from "./client.js";
import { batchWrite } from "./batch-write.js";
import { keys } from "./keys.js";

/**
 * The inverted index behind the `search` narrow operator: one posting item
 * per (realm, term, message) — `SEARCH#<realm>#<term>` / padded message ID —
 * so that a term's messages are one partition read newest first with the
 * same ID-range queries as every other message index (`queryIdRange`).
 *
 * Postings are hints, not truth: readers re-check every term against the
 * message itself, so postings left behind by an edit never produce a wrong
 * result (they only cost a read).
 */

/** Terms longer than this are not indexed (and are cut to it when searching). */
export const MAX_TERM_LENGTH = 64;

/** At most this many distinct terms of one message are indexed (10,000 bytes of content hold fewer in practice). */
export const MAX_TERMS_PER_MESSAGE = 1000;


/** The partition key value of one term's postings. */
export function postingPartition(realmId: number, term: string): string {
  return keys.searchTerm(realmId, term).pk;
}

/**
 * Writes the postings of one message: one item per distinct term, 25 per
 * BatchWriteItem. Writing the same postings again is harmless (idempotent).
 * @returns the number of BatchWriteItem calls made
 */
export async function putPostings(store: Store, realmId: number, messageId: number, terms: string[]): Promise<number> {
  const items = [...new Set(terms)]
    .slice(0, MAX_TERMS_PER_MESSAGE)
    .map((term) => ({ ...keys.searchPosting(realmId, term, messageId), type: "search_posting", message_id: messageId }));
  if (items.length === 0) return 0;
  return batchWrite(store, items);
}

/**
 * Deletes the postings of one message for the given terms (a deleted
 * message's terms): 25 per BatchWriteItem. Deleting a missing posting is
 * harmless.
 * @returns the number of BatchWriteItem calls made
 */
export async function deletePostings(store: Store, realmId: number, messageId: number, terms: string[]): Promise<number> {
  const doomed = [...new Set(terms)].slice(0, MAX_TERMS_PER_MESSAGE).map((term) => keys.searchPosting(realmId, term, messageId));
  if (doomed.length === 0) return 0;
  return batchWrite(store, [], doomed);
}
