import { useId, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { emojiGlyph, MAX_STATUS_TEXT, STATUS_PRESETS } from "../../model/people.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useAction } from "../ui/useAction.js";

/** The emoji offered for a status: the presets' and a few more (name and code point). */
const STATUS_EMOJI: readonly { emoji_name: string; emoji_code: string }[] = [
  ...STATUS_PRESETS.map(({ emoji_name, emoji_code }) => ({ emoji_name, emoji_code })),
  { emoji_name: "coffee", emoji_code: "2615" },
  { emoji_name: "airplane", emoji_code: "2708" },
  { emoji_name: "headphones", emoji_code: "1f3a7" },
  { emoji_name: "zzz", emoji_code: "1f4a4" },
];

/**
 * The "Set status" dialog (https://zulip.com/help/status-and-availability):
 * an emoji (none or one of a short list), the status text (at most 60
 * characters), Zulip's presets ("In a meeting", "Commuting", "Out sick",
 * "Vacationing", "Working remotely") that fill both, "Save" and "Clear
 * status" (`POST /users/me/status`, https://zulip.com/api/update-status).
 * The server's refusal shows in the dialog; a success closes it.
 */
export function SetStatusDialog(props: { chat: Chat; state: ChatState; onClose(): void }) {
  const current = props.state.people.statuses.get(props.state.me.user_id);
  const [text, setText] = useState(current?.status_text ?? "");
  const [emoji, setEmoji] = useState(current?.emoji_name ?? "");
  const textId = useId();
  const emojiId = useId();
  const save = useAction(async (clear: boolean) => {
    const chosen = STATUS_EMOJI.find((e) => e.emoji_name === emoji);
    const params = clear
      ? { status_text: "", emoji_name: "" }
      : chosen
        ? { status_text: text.trim(), emoji_name: chosen.emoji_name, emoji_code: chosen.emoji_code, reaction_type: "unicode_emoji" }
        : { status_text: text.trim(), emoji_name: emoji === "" ? "" : (current?.emoji_name ?? "") };
    await props.chat.api.call("POST", "/users/me/status", params);
  });
  const submit = async (clear: boolean) => {
    if (await save.run(clear)) props.onClose();
  };
  const options = current?.emoji_name && !STATUS_EMOJI.some((e) => e.emoji_name === current.emoji_name) ? [current, ...STATUS_EMOJI] : STATUS_EMOJI;
  return (
    <Dialog title="Set status" onClose={props.onClose} class="status-dialog">
      <form
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <div class="status-inputs">
          <label for={emojiId}>Status emoji</label>
          <select id={emojiId} value={emoji} onChange={(e) => setEmoji((e.target as HTMLSelectElement).value)}>
            <option value="">No emoji</option>
            {options.map((o) => (
              <option key={o.emoji_name} value={o.emoji_name}>
                {emojiGlyph({ ...o, reaction_type: "unicode_emoji" })} {o.emoji_name.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          <label for={textId}>Status message</label>
          <input
            id={textId}
            type="text"
            maxLength={MAX_STATUS_TEXT}
            placeholder="Your status"
            value={text}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
        </div>
        <ul class="status-presets" aria-label="Status presets">
          {STATUS_PRESETS.map((p) => (
            <li key={p.status_text}>
              <button
                type="button"
                onClick={() => {
                  setText(p.status_text);
                  setEmoji(p.emoji_name);
                }}
              >
                <span aria-hidden="true">{emojiGlyph({ ...p, reaction_type: "unicode_emoji" })} </span>
                {p.status_text}
              </button>
            </li>
          ))}
        </ul>
        <ErrorNote error={save.error} />
        <footer class="dialog-footer">
          <button type="button" disabled={save.pending} onClick={() => void submit(true)}>
            Clear status
          </button>
          <button type="submit" class="button-primary" disabled={save.pending}>
            Save
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
