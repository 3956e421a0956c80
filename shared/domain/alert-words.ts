/**
 * Alert words (https://zulip.com/help/dm-mention-alert-notifications#alert-words):
 * list changes and matching against message content, as Zulip's
 * `zerver/lib/alert_words.py` and the `AlertWordNotificationProcessor` of
 * `zerver/lib/markdown/__init__.py` do them.
 */

/** Most characters of one alert word (Zulip's limit on `POST /users/me/alert_words`). */
export const ALERT_WORD_MAX_LENGTH = 100;

/** Most alert words one user may keep (this server's bound: the list is one item). */
export const MAX_ALERT_WORDS = 1000;

/** Zulip's `clean_alert_words`: trims each word and drops the empty ones. */
export function cleanAlertWords(words: readonly string[]): string[] {
  return words.map((w) => w.trim()).filter((w) => w !== "");
}

/**
 * Zulip's `add_user_alert_words`: appends the words not already present
 * (compared case-insensitively); among new words equal but for case, the
 * last spelling is kept, at the first one's position.
 */
export function withAlertWords(existing: readonly string[], added: readonly string[]): string[] {
  const known = new Set(existing.map((w) => w.toLowerCase()));
  const fresh = new Map<string, string>();
  for (const word of added) {
    const lower = word.toLowerCase();
    if (!known.has(lower)) fresh.set(lower, word);
  }
  return [...existing, ...fresh.values()];
}

/** Zulip's `remove_user_alert_words`: drops every word equal, case-insensitively, to one removed. */
export function withoutAlertWords(existing: readonly string[], removed: readonly string[]): string[] {
  const gone = new Set(removed.map((w) => w.toLowerCase()));
  return existing.filter((w) => !gone.has(w.toLowerCase()));
}

/** Characters that may precede a match (Zulip's `allowed_before_punctuation`, any whitespace for its space and newline). */
const BEFORE = new Set(["(", '"', ".", ",", "'", ";", "[", "*", "`", ">"]);
/** Characters that may follow a match (Zulip's `allowed_after_punctuation`). */
const AFTER = new Set([")", "?", ":", ".", ",", "'", ";", "]", "!", "*", "`"]);

const FENCE_OPEN = /^\s*(`{3,}|~{3,})[ \t]*([^\s`]*)/;
/** Fenced blocks whose content is rendered as Markdown again, so alert words in them count. */
const MARKDOWN_FENCES = new Set(["quote", "quoted", "spoiler"]);

/**
 * A code span: a run of backticks, then anything up to the next run of the
 * same length (CommonMark's rule), across lines of one paragraph.
 */
const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/**
 * The text alert words are matched in: the source without fenced code (and
 * math) blocks and without inline code spans — an alert word never matches
 * inside code; `quote` and `spoiler` fences stay, since their content is
 * rendered as Markdown again. A removed span leaves a space, so the words
 * around it stay apart.
 */
export function alertWordText(content: string): string {
  const kept: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of content.split("\n")) {
    if (fence) {
      const close = line.trim();
      if (close.length >= fence.length && close === fence.char.repeat(close.length)) fence = undefined;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !MARKDOWN_FENCES.has(open[2]!.toLowerCase())) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    kept.push(line);
  }
  return kept.join("\n").replace(CODE_SPAN, " ");
}

/** Whether `word` (lower case) occurs in `text` (lower case) bounded by start/end, whitespace or allowed punctuation. */
function occurs(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? "" : text[at - 1]!;
    const afterAt = at + word.length;
    const after = afterAt >= text.length ? "" : text[afterAt]!;
    const startOk = before === "" || /\s/.test(before) || BEFORE.has(before);
    const endOk = after === "" || /\s/.test(after) || AFTER.has(after);
    if (startOk && endOk) return true;
  }
  return false;
}

/**
 * The users whose alert words occur in a message's Markdown source
 * (Zulip's `user_ids_with_alert_words`): case-insensitive, each match
 * bounded by the start or end of the text, whitespace or one of Zulip's
 * allowed punctuation characters, outside fenced code blocks (see
 * {@link alertWordText}).
 * @param wordsByUser user ID → that user's alert words
 */
export function usersWithAlertWords(content: string, wordsByUser: ReadonlyMap<number, readonly string[]>): Set<number> {
  const found = new Set<number>();
  if (wordsByUser.size === 0) return found;
  const text = alertWordText(content).toLowerCase();
  for (const [userId, words] of wordsByUser) {
    if (words.some((w) => w !== "" && occurs(text, w.toLowerCase()))) found.add(userId);
  }
  return found;
}
