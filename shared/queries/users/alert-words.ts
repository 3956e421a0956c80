import type { Deps } from "../../deps.js";
import { alertWordsOf } from "../../data/alert-words.js";
import type { RealmRecord } from "../../data/records/realm.js";

/**
 * One user's alert words, in the order they were added
 * (https://zulip.com/api/get-alert-words; register's `alert_words`).
 * No read while nobody in the realm ever added one.
 */
export async function fetchAlertWords(deps: Deps, realm: RealmRecord, userId: number): Promise<string[]> {
  if (!realm.alert_words_in_use) return [];
  return (await alertWordsOf(deps, userId)) ?? [];
}
