import { useId, useRef, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { postForm } from "../../../api/form.js";

const CREATABLE_TYPES = [
  { value: 2, label: "Incoming webhook" },
  { value: 1, label: "Generic bot" },
  { value: 3, label: "Outgoing webhook" },
];

/**
 * "Add a new bot" (https://zulip.com/help/add-a-bot-or-integration): type,
 * name, username (the bot's email becomes `<username>-bot@<domain>`) and an
 * optional avatar, sent as `POST /bots` (multipart when an avatar is chosen).
 * The new bot appears in the list through its `realm_bot` event.
 */
export function CreateBotForm({ chat }: { chat: Chat }) {
  const id = useId();
  const [type, setType] = useState(2);
  const [name, setName] = useState("");
  const [username, setUsername] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const create = useAction(async () => {
    setCreated(null);
    const avatar = file.current?.files?.[0];
    const params = { full_name: name.trim(), short_name: username.trim(), bot_type: type };
    if (avatar) {
      const form = new FormData();
      for (const [k, v] of Object.entries(params)) form.append(k, String(v));
      form.append("file", avatar, avatar.name);
      await postForm("/bots", form);
    } else {
      await chat.api.call("POST", "/bots", params);
    }
    setCreated(name.trim());
    setName("");
    setUsername("");
    if (file.current) file.current.value = "";
  });
  return (
    <form
      class="settings-form settings-group"
      aria-label="Add a new bot"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <h3>Add a new bot</h3>
      <div class="settings-row">
        <label for={`${id}-type`}>Bot type</label>
        <select id={`${id}-type`} value={String(type)} onChange={(e) => setType(Number((e.currentTarget as HTMLSelectElement).value))}>
          {CREATABLE_TYPES.map((t) => (
            <option key={t.value} value={String(t.value)}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div class="settings-row">
        <label for={`${id}-name`}>Bot name</label>
        <input id={`${id}-name`} value={name} maxLength={100} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <div class="settings-row">
        <label for={`${id}-username`}>Bot username</label>
        <input
          id={`${id}-username`}
          value={username}
          maxLength={100}
          aria-describedby={`${id}-username-hint`}
          onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)}
        />
        <span class="settings-hint" id={`${id}-username-hint`}>
          The bot's email will be {username.trim() || "<username>"}-bot@… in this organization.
        </span>
      </div>
      <div class="settings-row">
        <label for={`${id}-avatar`}>Avatar (optional)</label>
        <input id={`${id}-avatar`} ref={file} type="file" accept="image/*" />
      </div>
      <div>
        <button type="submit" disabled={create.pending || name.trim() === "" || username.trim() === ""}>
          Create bot
        </button>
      </div>
      <ErrorNote error={create.error} />
      {created && <p role="status">Bot “{created}” created.</p>}
    </form>
  );
}
