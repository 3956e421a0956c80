import { useId, useState } from "preact/hooks";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";

/**
 * "Alert words" (`#settings/alert-words`, https://zulip.com/help/dm-mention-alert-notifications#alert-words):
 * the reader's alert words, added with `POST /users/me/alert_words` and
 * removed with `DELETE /users/me/alert_words`
 * (https://zulip.com/api/add-alert-words); the list follows `alert_words` events.
 */
export function AlertWordsSection({ chat, state }: SectionProps) {
  const id = useId();
  const [word, setWord] = useState("");
  const words = [...state.personal.alertWords].sort((a, b) => a.localeCompare(b));
  const add = useAction(async () => {
    await chat.api.call("POST", "/users/me/alert_words", { alert_words: [word.trim()] });
    setWord("");
  });
  const remove = useAction((w: string) => chat.api.call("DELETE", "/users/me/alert_words", { alert_words: [w] }));
  return (
    <div>
      <h2 tabIndex={-1}>Alert words</h2>
      <p>You get notified when an alert word is used in a message, as for a mention.</p>
      <form
        class="settings-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (word.trim()) void add.run();
        }}
      >
        <label for={id}>New alert word</label>
        <div class="settings-inline">
          <input id={id} value={word} maxLength={100} onInput={(e) => setWord((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit" disabled={add.pending || word.trim() === ""}>
            Add alert word
          </button>
        </div>
        <ErrorNote error={add.error} />
      </form>
      {words.length === 0 ? (
        <p>You have no alert words.</p>
      ) : (
        <ul class="settings-list" aria-label="Alert words">
          {words.map((w) => (
            <li key={w}>
              <span>{w}</span>
              <button type="button" aria-label={`Delete alert word ${w}`} disabled={remove.pending} onClick={() => void remove.run(w)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
    </div>
  );
}
