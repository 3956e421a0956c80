import { useId, useState } from "preact/hooks";
import { isAdministrator } from "../../../model/roles.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ActionButton } from "./UserActions.js";
import type { SectionProps } from "../types.js";

/**
 * `#organization/default-channels-list` (https://zulip.com/help/set-default-channels-for-new-users):
 * the channels new users join; administrators add one (`POST /default_streams`)
 * or remove one (`DELETE /default_streams`). Kept live by `default_streams` events.
 */
export function DefaultChannels(props: SectionProps) {
  const defaults = (props.state.realmSettings.realm_default_streams as { stream_id: number; name: string; description: string }[] | undefined) ?? [];
  const admin = isAdministrator(props.state);
  const [adding, setAdding] = useState("");
  const selectId = useId();
  const api = props.chat.api;
  const add = useAction(async () => {
    await api.call("POST", "/default_streams", { stream_id: Number(adding) });
    setAdding("");
  });
  const ids = new Set(defaults.map((s) => s.stream_id));
  const candidates = [...props.state.streams.values()].filter((s) => !ids.has(s.stream_id)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Default channels</h2>
      <p>New users join these channels when they sign up.</p>
      {!admin && <ReadOnlyNote />}
      {defaults.length === 0 ? (
        <p>There are no default channels.</p>
      ) : (
        <table aria-label="Default channels">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Description</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {[...defaults].sort((a, b) => a.name.localeCompare(b.name)).map((s) => (
              <tr key={s.stream_id}>
                <td>{s.name}</td>
                <td>{s.description}</td>
                {admin && (
                  <td>
                    <ActionButton label={`Remove ${s.name}`} text="Remove" act={() => api.call("DELETE", "/default_streams", { stream_id: s.stream_id })} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form
          class="org-inline-form"
          aria-label="Add a default channel"
          onSubmit={(e) => {
            e.preventDefault();
            void add.run();
          }}
        >
          <label for={selectId}>Channel to add</label>
          <select id={selectId} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            <option value="">Choose a channel</option>
            {candidates.map((s) => (
              <option key={s.stream_id} value={String(s.stream_id)}>
                {s.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={!adding || add.pending}>
            Add channel
          </button>
          <ErrorNote error={add.error} />
        </form>
      )}
    </div>
  );
}
