import { useId, useState } from "preact/hooks";
import { isAdministrator } from "../../../model/roles.js";
import { Dialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { moved } from "./profile-field-logic.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ActionButton, ConfirmedAction } from "./UserActions.js";
import type { SectionProps } from "../types.js";

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/** The pattern and URL template form of a new or edited linkifier; the server's regex or template error shows under it. */
function LinkifierForm(props: { label: string; initial: Omit<Linkifier, "id">; submitText: string; save(l: Omit<Linkifier, "id">): Promise<unknown>; done?(): void }) {
  const [l, setL] = useState(props.initial);
  const patternId = useId();
  const templateId = useId();
  const action = useAction(async () => {
    await props.save(l);
    setL(props.initial);
    props.done?.();
  });
  return (
    <form
      class="settings-form"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        void action.run();
      }}
    >
      <div class="settings-row">
        <label for={patternId}>Pattern</label>
        <input id={patternId} value={l.pattern} required placeholder="#(?P<id>[0-9]+)" onInput={(e) => setL({ ...l, pattern: e.currentTarget.value })} />
      </div>
      <div class="settings-row">
        <label for={templateId}>URL template</label>
        <input
          id={templateId}
          value={l.url_template}
          required
          placeholder="https://github.com/zulip/zulip/issues/{id}"
          onInput={(e) => setL({ ...l, url_template: e.currentTarget.value })}
        />
      </div>
      <div class="org-actions">
        <button type="submit" class="button-primary" disabled={action.pending}>
          {props.submitText}
        </button>
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}

/**
 * `#organization/linkifier-settings` (https://zulip.com/help/add-a-custom-linkifier):
 * the organization's linkifiers in the order they apply; administrators add
 * (`POST /realm/filters`), edit (`PATCH /realm/filters/{id}`), delete and
 * reorder (`PATCH /realm/linkifiers`). Kept live by `realm_linkifiers` events.
 */
export function Linkifiers(props: SectionProps) {
  const list = (props.state.realmSettings.realm_linkifiers as Linkifier[] | undefined) ?? [];
  const admin = isAdministrator(props.state);
  const [editing, setEditing] = useState<Linkifier | null>(null);
  const api = props.chat.api;
  const reorder = (id: number, by: -1 | 1) => api.call("PATCH", "/realm/linkifiers", { ordered_linkifier_ids: moved(list.map((l) => l.id), id, by) });
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Linkifiers</h2>
      <p>Linkifiers turn text patterns in messages and topics into links.</p>
      {!admin && <ReadOnlyNote />}
      {list.length === 0 ? (
        <p>There are no linkifiers.</p>
      ) : (
        <table aria-label="Linkifiers">
          <thead>
            <tr>
              <th scope="col">Pattern</th>
              <th scope="col">URL template</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {list.map((l, i) => (
              <tr key={l.id}>
                <td>
                  <code>{l.pattern}</code>
                </td>
                <td>
                  <code>{l.url_template}</code>
                </td>
                {admin && (
                  <td class="org-actions">
                    <ActionButton label={`Move ${l.pattern} up`} text="↑" disabled={i === 0} act={() => reorder(l.id, -1)} />
                    <ActionButton label={`Move ${l.pattern} down`} text="↓" disabled={i === list.length - 1} act={() => reorder(l.id, 1)} />
                    <button type="button" aria-label={`Edit ${l.pattern}`} onClick={() => setEditing(l)}>
                      Edit
                    </button>
                    <ConfirmedAction
                      label={`Delete ${l.pattern}`}
                      buttonText="Delete"
                      title="Delete linkifier?"
                      question={`Text matching ${l.pattern} will no longer be linked.`}
                      confirmLabel="Delete"
                      act={() => api.call("DELETE", `/realm/filters/${l.id}`)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <Dialog title="Edit linkifier" onClose={() => setEditing(null)}>
          <LinkifierForm
            label="Edit linkifier"
            submitText="Save changes"
            initial={{ pattern: editing.pattern, url_template: editing.url_template }}
            save={(l) => api.call("PATCH", `/realm/filters/${editing.id}`, l)}
            done={() => setEditing(null)}
          />
        </Dialog>
      )}
      {admin && (
        <>
          <h3>Add a new linkifier</h3>
          <LinkifierForm label="Add a new linkifier" submitText="Add linkifier" initial={{ pattern: "", url_template: "" }} save={(l) => api.call("POST", "/realm/filters", l)} />
        </>
      )}
    </div>
  );
}
