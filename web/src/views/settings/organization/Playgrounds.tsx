import { useId, useState } from "preact/hooks";
import { isAdministrator } from "../../../model/roles.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ConfirmedAction } from "./UserActions.js";
import type { SectionProps } from "../types.js";

interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

/**
 * `#organization/playground-settings` (https://zulip.com/help/code-blocks#code-playgrounds):
 * the code playgrounds; administrators add (`POST /realm/playgrounds`) and
 * delete (`DELETE /realm/playgrounds/{id}`). Kept live by `realm_playgrounds` events.
 */
export function Playgrounds(props: SectionProps) {
  const list = (props.state.realmSettings.realm_playgrounds as Playground[] | undefined) ?? [];
  const admin = isAdministrator(props.state);
  const empty = { name: "", pygments_language: "", url_template: "" };
  const [p, setP] = useState(empty);
  const ids = { lang: useId(), name: useId(), url: useId() };
  const api = props.chat.api;
  const add = useAction(async () => {
    await api.call("POST", "/realm/playgrounds", p);
    setP(empty);
  });
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Code playgrounds</h2>
      <p>Code blocks in these languages get a link that opens the code in the playground.</p>
      {!admin && <ReadOnlyNote />}
      {list.length === 0 ? (
        <p>There are no code playgrounds.</p>
      ) : (
        <table aria-label="Code playgrounds">
          <thead>
            <tr>
              <th scope="col">Language</th>
              <th scope="col">Name</th>
              <th scope="col">URL template</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {list.map((x) => (
              <tr key={x.id}>
                <td>{x.pygments_language}</td>
                <td>{x.name}</td>
                <td>
                  <code>{x.url_template}</code>
                </td>
                {admin && (
                  <td>
                    <ConfirmedAction
                      label={`Delete ${x.name}`}
                      buttonText="Delete"
                      title={`Delete ${x.name}?`}
                      question="Code blocks will no longer link to this playground."
                      confirmLabel="Delete"
                      act={() => api.call("DELETE", `/realm/playgrounds/${x.id}`)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form
          class="settings-form"
          aria-label="Add a new code playground"
          onSubmit={(e) => {
            e.preventDefault();
            void add.run();
          }}
        >
          <h3>Add a new code playground</h3>
          <div class="settings-row">
            <label for={ids.lang}>Language</label>
            <input id={ids.lang} value={p.pygments_language} required placeholder="Python" onInput={(e) => setP({ ...p, pygments_language: e.currentTarget.value })} />
          </div>
          <div class="settings-row">
            <label for={ids.name}>Name</label>
            <input id={ids.name} value={p.name} required onInput={(e) => setP({ ...p, name: e.currentTarget.value })} />
          </div>
          <div class="settings-row">
            <label for={ids.url}>URL template</label>
            <input id={ids.url} value={p.url_template} required placeholder="https://example.com/?code={code}" onInput={(e) => setP({ ...p, url_template: e.currentTarget.value })} />
          </div>
          <div class="org-actions">
            <button type="submit" class="button-primary" disabled={add.pending}>
              Add code playground
            </button>
          </div>
          <ErrorNote error={add.error} />
        </form>
      )}
    </div>
  );
}
