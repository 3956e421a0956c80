/** One user's alert words as stored (https://zulip.com/api/get-alert-words): the whole list in one item. */
export interface AlertWordsRecord {
  user_id: number;
  /** The words and phrases in the order they were added, each as the user typed it (case kept). */
  words: string[];
}
