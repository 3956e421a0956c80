import { useId, useState } from "preact/hooks";
import { isAdministrator, myRole } from "../../../model/roles.js";
import type { ChatState } from "../../../model/store.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { ConfirmedAction } from "./UserActions.js";
import { postFile } from "../../../api/form.js";
import { policyAllows } from "./users-logic.js";
import type { SectionProps } from "../types.js";

/** Whether the reader may add custom emoji (`realm_add_custom_emoji_policy`, https://zulip.com/help/custom-emoji#change-who-can-add-custom-emoji). */
export function canAddEmoji(state: ChatState, nowMs = Date.now()): boolean {
  const r = state.realmSettings;
  const me = state.users.get(state.me.user_id);
  return policyAllows(Number(r.realm_add_custom_emoji_policy ?? 1), { role: myRole(state), date_joined: me?.date_joined }, Number(r.realm_waiting_period_threshold ?? 0), nowMs);
}

/** The form that uploads a custom emoji: its name and image (`POST /realm/emoji/{name}`). */
function AddEmoji(props: SectionProps) {
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [key, setKey] = useState(0);
  const nameId = useId();
  const fileId = useId();
  const add = useAction(async () => {
    if (!file) throw new Error("Choose an image for the emoji.");
    await postFile(`/realm/emoji/${encodeURIComponent(name)}`, file);
    setName("");
    setFile(null);
    setKey((k) => k + 1);
  });
  return (
    <form
      class="settings-form"
      aria-label="Add a new emoji"
      onSubmit={(e) => {
        e.preventDefault();
        void add.run();
      }}
    >
      <h3>Add a new emoji</h3>
      <div class="settings-row">
        <label for={nameId}>Emoji name</label>
        <input id={nameId} value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="settings-row">
        <label for={fileId}>Emoji image</label>
        <input key={key} id={fileId} type="file" accept="image/*" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </div>
      <div class="org-actions">
        <button type="submit" class="button-primary" disabled={add.pending}>
          Add emoji
        </button>
      </div>
      <ErrorNote error={add.error} />
    </form>
  );
}

/**
 * `#organization/emoji-settings` (https://zulip.com/help/custom-emoji): the
 * organization's custom emoji with their images and authors; those the
 * organization lets add emoji upload one, and administrators (or the emoji's
 * uploader) delete one (`DELETE /realm/emoji/{name}`). Kept live by `realm_emoji` events.
 */
export function EmojiSettings(props: SectionProps) {
  const all = Object.fromEntries(props.state.realmEmoji);
  const emoji = Object.values(all).filter((e) => !e.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  const admin = isAdministrator(props.state);
  const adder = canAddEmoji(props.state);
  const me = props.state.me.user_id;
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Custom emoji</h2>
      {!adder && <p class="org-readonly">You do not have permission to add custom emoji.</p>}
      {emoji.length === 0 ? (
        <p>There are no custom emoji.</p>
      ) : (
        <table aria-label="Custom emoji">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Image</th>
              <th scope="col">Author</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {emoji.map((e) => (
              <tr key={e.id}>
                <td>{e.name}</td>
                <td>
                  <img class="org-emoji" src={e.source_url} alt={`:${e.name}:`} width={24} height={24} />
                </td>
                <td>{(e.author_id !== null && props.state.users.get(e.author_id)?.full_name) || "Unknown"}</td>
                <td>
                  {(admin || (adder && e.author_id === me)) && (
                    <ConfirmedAction
                      label={`Delete ${e.name}`}
                      buttonText="Delete"
                      title={`Delete :${e.name}:?`}
                      question="Messages that use the emoji keep it; nobody can use it in new ones."
                      confirmLabel="Delete"
                      act={() => props.chat.api.call("DELETE", `/realm/emoji/${encodeURIComponent(e.name)}`)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {adder && <AddEmoji {...props} />}
    </div>
  );
}
