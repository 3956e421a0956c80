import { useId, useState } from "preact/hooks";
import type { WireCustomProfileField } from "../../../../../shared/wire/custom-profile-field.js";
import { isAdministrator } from "../../../model/roles.js";
import { Dialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ActionButton, ConfirmedAction } from "./UserActions.js";
import { FIELD_TYPES, SELECT_TYPE, fieldTypeName, moved, selectFieldData, selectOptionLines } from "./profile-field-logic.js";
import type { SectionProps } from "../types.js";

/** What the field form sends: name, hint, type and (list of options) `field_data`. */
interface FieldDraft {
  name: string;
  hint: string;
  type: number;
  options: string;
}

/** The form of a new or edited field; the type is chosen only for a new one. */
function FieldForm(props: { label: string; initial: FieldDraft; typeFixed?: boolean; submitText: string; save(d: FieldDraft): Promise<unknown>; done?(): void }) {
  const [d, setD] = useState(props.initial);
  const ids = { name: useId(), hint: useId(), type: useId(), options: useId() };
  const action = useAction(async () => {
    await props.save(d);
    setD(props.initial);
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
      {!props.typeFixed && (
        <div class="settings-row">
          <label for={ids.type}>Type</label>
          <select id={ids.type} value={String(d.type)} onChange={(e) => setD({ ...d, type: Number(e.currentTarget.value) })}>
            {FIELD_TYPES.map(([t, name]) => (
              <option key={t} value={String(t)}>
                {name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="settings-row">
        <label for={ids.name}>Label</label>
        <input id={ids.name} value={d.name} maxLength={40} required onInput={(e) => setD({ ...d, name: e.currentTarget.value })} />
      </div>
      <div class="settings-row">
        <label for={ids.hint}>Hint</label>
        <input id={ids.hint} value={d.hint} maxLength={80} onInput={(e) => setD({ ...d, hint: e.currentTarget.value })} />
      </div>
      {d.type === SELECT_TYPE && (
        <div class="settings-row">
          <label for={ids.options}>Options (one per line)</label>
          <textarea id={ids.options} rows={4} value={d.options} onInput={(e) => setD({ ...d, options: e.currentTarget.value })} />
        </div>
      )}
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
 * `#organization/profile-field-settings` (https://zulip.com/help/custom-profile-fields):
 * the organization's custom profile fields in order; administrators add
 * (`POST /realm/profile_fields`), edit (`PATCH …/{id}`), delete and reorder
 * (`PATCH /realm/profile_fields` with `order`). Kept live by `custom_profile_fields` events.
 */
export function ProfileFields(props: SectionProps) {
  const fields = props.state.people.profileFields;
  const admin = isAdministrator(props.state);
  const [editing, setEditing] = useState<WireCustomProfileField | null>(null);
  const api = props.chat.api;
  const reorder = (id: number, by: -1 | 1) => api.call("PATCH", "/realm/profile_fields", { order: moved(fields.map((f) => f.id), id, by) });
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Custom profile fields</h2>
      {!admin && <ReadOnlyNote />}
      {fields.length === 0 ? (
        <p>There are no custom profile fields.</p>
      ) : (
        <table aria-label="Custom profile fields">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Hint</th>
              <th scope="col">Type</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {fields.map((f, i) => (
              <tr key={f.id}>
                <td>{f.name}</td>
                <td>{f.hint}</td>
                <td>{fieldTypeName(f.type)}</td>
                {admin && (
                  <td class="org-actions">
                    <ActionButton label={`Move ${f.name} up`} text="↑" disabled={i === 0} act={() => reorder(f.id, -1)} />
                    <ActionButton label={`Move ${f.name} down`} text="↓" disabled={i === fields.length - 1} act={() => reorder(f.id, 1)} />
                    <button type="button" aria-label={`Edit ${f.name}`} onClick={() => setEditing(f)}>
                      Edit
                    </button>
                    <ConfirmedAction
                      label={`Delete ${f.name}`}
                      buttonText="Delete"
                      title={`Delete ${f.name}?`}
                      question="The field and everyone's values of it are deleted."
                      confirmLabel="Delete"
                      act={() => api.call("DELETE", `/realm/profile_fields/${f.id}`)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <Dialog title={`Edit ${editing.name}`} onClose={() => setEditing(null)}>
          <FieldForm
            label="Edit profile field"
            typeFixed
            submitText="Save changes"
            initial={{ name: editing.name, hint: editing.hint, type: editing.type, options: selectOptionLines(editing.field_data) }}
            save={(d) =>
              api.call("PATCH", `/realm/profile_fields/${editing.id}`, {
                name: d.name,
                hint: d.hint,
                ...(d.type === SELECT_TYPE ? { field_data: selectFieldData(d.options) } : {}),
              })
            }
            done={() => setEditing(null)}
          />
        </Dialog>
      )}
      {admin && (
        <>
          <h3>Add a new profile field</h3>
          <FieldForm
            label="Add a new profile field"
            submitText="Add"
            initial={{ name: "", hint: "", type: 1, options: "" }}
            save={(d) =>
              api.call("POST", "/realm/profile_fields", {
                name: d.name,
                hint: d.hint,
                field_type: d.type,
                ...(d.type === SELECT_TYPE ? { field_data: selectFieldData(d.options) } : {}),
              })
            }
          />
        </>
      )}
    </div>
  );
}
