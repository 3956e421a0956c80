import { useEffect, useId, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ProfileField } from "../../../model/people.js";
import type { ChatState } from "../../../model/store.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";

/** Custom profile field types (https://zulip.com/api/get-custom-profile-fields). */
const FIELD_TYPE = { shortText: 1, longText: 2, select: 3, date: 4, link: 5, user: 6, externalAccount: 7, pronouns: 8 } as const;

/** The choices of a select field: its `field_data` JSON `{key: {text, order}}`, in order. */
export function selectChoices(fieldData: string): { key: string; text: string }[] {
  try {
    const data = JSON.parse(fieldData) as Record<string, { text: string; order: string | number }>;
    return Object.entries(data)
      .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
      .map(([key, v]) => ({ key, text: v.text }));
  } catch {
    return [];
  }
}

/**
 * The organization's custom profile fields with the reader's values
 * (https://zulip.com/help/custom-profile-fields): one input per field by its
 * type, saved together — changed values with `PATCH /users/me/profile_data`,
 * emptied ones with `DELETE /users/me/profile_data`.
 */
export function ProfileFields(props: { chat: Chat; state: ChatState; fields: readonly ProfileField[] }) {
  const { chat, state, fields } = props;
  const stored = state.users.get(state.me.user_id)?.profile_data ?? {};
  const storedValue = (id: number) => stored[id]?.value ?? "";
  const [values, setValues] = useState<Record<number, string>>({});
  useEffect(() => setValues({}), [state.users.get(state.me.user_id)?.profile_data]);
  const current = (id: number) => values[id] ?? storedValue(id);
  const changed = fields.filter((f) => current(f.id) !== storedValue(f.id));
  const save = useAction(async () => {
    const set = changed.filter((f) => current(f.id) !== "");
    const cleared = changed.filter((f) => current(f.id) === "");
    if (set.length > 0) {
      const data = set.map((f) => ({ id: f.id, value: f.type === FIELD_TYPE.user ? [Number(current(f.id))] : current(f.id) }));
      await chat.api.call("PATCH", "/users/me/profile_data", { data });
    }
    if (cleared.length > 0) await chat.api.call("DELETE", "/users/me/profile_data", { data: cleared.map((f) => f.id) });
  });
  if (fields.length === 0) return null;
  return (
    <form
      class="settings-form"
      aria-label="Profile fields"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h3>Profile fields</h3>
      {fields.map((f) => (
        <FieldInput key={f.id} field={f} state={state} value={current(f.id)} onChange={(v) => setValues({ ...values, [f.id]: v })} />
      ))}
      <div>
        <button type="submit" disabled={save.pending || changed.length === 0}>
          Save profile fields
        </button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}

function FieldInput(props: { field: ProfileField; state: ChatState; value: string; onChange(v: string): void }) {
  const { field, value } = props;
  const id = useId();
  const onInput = (e: Event) => props.onChange((e.currentTarget as HTMLInputElement).value);
  const hint = field.hint ? `${id}-hint` : undefined;
  let control;
  if (field.type === FIELD_TYPE.longText) control = <textarea id={id} value={value} onInput={onInput} aria-describedby={hint} rows={3} />;
  else if (field.type === FIELD_TYPE.select) {
    control = (
      <select id={id} value={value} onChange={onInput} aria-describedby={hint}>
        <option value="">(none)</option>
        {selectChoices(field.field_data).map((c) => (
          <option key={c.key} value={c.key}>
            {c.text}
          </option>
        ))}
      </select>
    );
  } else if (field.type === FIELD_TYPE.user) {
    // The stored value is a JSON list of user IDs; the form picks one person.
    const chosen = value.startsWith("[") ? String((JSON.parse(value) as number[])[0] ?? "") : value;
    const people = [...props.state.users.values()].filter((u) => !u.is_bot && u.is_active !== false).sort((a, b) => a.full_name.localeCompare(b.full_name));
    control = (
      <select id={id} value={chosen} onChange={onInput} aria-describedby={hint}>
        <option value="">(none)</option>
        {people.map((u) => (
          <option key={u.user_id} value={String(u.user_id)}>
            {u.full_name}
          </option>
        ))}
      </select>
    );
  } else {
    const type = field.type === FIELD_TYPE.date ? "date" : field.type === FIELD_TYPE.link ? "url" : "text";
    control = <input id={id} type={type} value={value} onInput={onInput} aria-describedby={hint} />;
  }
  return (
    <div class="settings-row">
      <label for={id}>{field.name}</label>
      {control}
      {field.hint && (
        <span class="settings-hint" id={hint}>
          {field.hint}
        </span>
      )}
    </div>
  );
}
