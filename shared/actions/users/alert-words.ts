import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { alertWordsOf, replaceAlertWords } from "../../data/alert-words.js";
import { updateRealmFields } from "../../data/realms.js";
import { withWriteRetries } from "../../data/retry.js";
import { cleanAlertWords, MAX_ALERT_WORDS, withAlertWords, withoutAlertWords } from "../../domain/alert-words.js";
import { JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";

/** Zulip's `do_add_alert_words`/`do_remove_alert_words` event: the user's whole list, to their own clients. */
export async function notifyAlertWords(deps: Deps, userId: number, words: string[]): Promise<void> {
  await sendEvent(deps, { type: "alert_words", alert_words: words }, [userId]);
}

/** Reads, changes and writes a user's list, starting over when a concurrent change came first. */
async function changeAlertWords(
  deps: Deps,
  user: UserRecord,
  change: (words: string[]) => string[],
): Promise<string[]> {
  return withWriteRetries("alert words", async () => {
    const before = await alertWordsOf(deps, user.user_id);
    const after = change(before ?? []);
    if (after.length > MAX_ALERT_WORDS) throw new JsonableError(`Too many alert words (limit: ${MAX_ALERT_WORDS})`);
    return (await replaceAlertWords(deps, user.user_id, before, after)) ? after : undefined;
  });
}

/**
 * Zulip's `do_add_alert_words` (https://zulip.com/api/add-alert-words):
 * adds the words (trimmed; empty ones and those already present, compared
 * case-insensitively, are skipped), marks the realm as using alert words
 * (once), and sends the `alert_words` event with the whole list to the
 * user's clients. Round trips: 2 (read, conditional write), a third the
 * first time anyone in the realm adds a word, then the event.
 * @param words each at most `ALERT_WORD_MAX_LENGTH` characters (checked by the endpoint)
 * @returns the user's whole list after the change
 * @throws JsonableError when the list would exceed `MAX_ALERT_WORDS`
 */
export async function doAddAlertWords(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  words: readonly string[],
): Promise<string[]> {
  const added = cleanAlertWords(words);
  const after = await changeAlertWords(deps, user, (existing) => withAlertWords(existing, added));
  if (after.length > 0 && !realm.alert_words_in_use) await updateRealmFields(deps, realm.id, { alert_words_in_use: true });
  await notifyAlertWords(deps, user.user_id, after);
  return after;
}

/**
 * Zulip's `do_remove_alert_words` (https://zulip.com/api/remove-alert-words):
 * removes every stored word equal, case-insensitively, to one given (others
 * are ignored) and sends the `alert_words` event with the whole list to the
 * user's clients. Round trips: 2 (read, conditional write), then the event.
 * @returns the user's whole list after the change
 */
export async function doRemoveAlertWords(deps: Deps, user: UserRecord, words: readonly string[]): Promise<string[]> {
  const after = await changeAlertWords(deps, user, (existing) => withoutAlertWords(existing, words));
  await notifyAlertWords(deps, user.user_id, after);
  return after;
}
