import { useId, useState } from "preact/hooks";
import type { ParamValue } from "../../../api/client.js";
import type { ChatState } from "../../../model/store.js";
import { userGroupList } from "../../../model/user-groups.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import {
  TIME_LIMIT_CHOICES,
  canChange,
  changedNames,
  changedParams,
  parseInput,
  readOnlyReason,
  timeLimitOptionValue,
  type SettingField,
  type SettingValue,
} from "./form-logic.js";

/** Zulip's names for the system groups a group-valued setting offers. */
export const SYSTEM_GROUP_LABELS: Record<string, string> = {
  "role:owners": "Owners",
  "role:administrators": "Administrators",
  "role:moderators": "Moderators",
  "role:fullmembers": "Full members",
  "role:members": "Members",
  "role:everyone": "Everyone including guests",
  "role:nobody": "Nobody",
};

/** A note that the reader may look but not change (administrators or owners only). */
export function ReadOnlyNote(props: { ownerOnly?: boolean; id?: string }) {
  return (
    <p class="org-readonly" id={props.id}>
      {readOnlyReason({ ownerOnly: props.ownerOnly })}
    </p>
  );
}

/** The options of one setting's `<select>`: [value, label]. */
function selectOptions(field: SettingField, state: ChatState, value: SettingValue): [string, string][] {
  if (field.kind === "select") return field.options.map(([v, l]) => [String(v), l]);
  if (field.kind === "time-limit") {
    const opts = TIME_LIMIT_CHOICES.map(([v, l]): [string, string] => [timeLimitOptionValue(v), l]);
    if (!opts.some(([v]) => v === timeLimitOptionValue(value))) opts.push([timeLimitOptionValue(value), `${Number(value)} seconds`]);
    return opts;
  }
  if (field.kind === "group") {
    const groups = userGroupList(state.userGroups).filter((g) => g.is_system_group);
    const opts = field.groups.flatMap((name): [string, string][] => {
      const g = groups.find((x) => x.name === name);
      return g ? [[String(g.id), SYSTEM_GROUP_LABELS[name] ?? name]] : [];
    });
    if (value !== null && !opts.some(([v]) => v === String(value))) opts.push([String(value), "A custom group"]);
    return opts;
  }
  return [];
}

/** One setting's label and control (checkbox, select, number or text), disabled when the reader may not change it. */
function SettingRow(props: { field: SettingField; value: SettingValue; state: ChatState; onChange(v: SettingValue): void }) {
  const { field, value, state } = props;
  const id = useId();
  const noteId = useId();
  const allowed = canChange(state, field);
  const described = allowed ? undefined : noteId;
  const set = (raw: string | boolean) => props.onChange(parseInput(field, raw));
  if (field.kind === "bool") {
    return (
      <div class="settings-row inline">
        <input id={id} type="checkbox" checked={value === true} disabled={!allowed} aria-describedby={described} onChange={(e) => set(e.currentTarget.checked)} />
        <label for={id}>{field.label}</label>
        {!allowed && field.ownerOnly && <ReadOnlyNote ownerOnly id={noteId} />}
      </div>
    );
  }
  let control;
  if (field.kind === "text" && field.multiline) {
    control = <textarea id={id} value={String(value ?? "")} maxLength={field.maxLength} rows={4} disabled={!allowed} aria-describedby={described} onInput={(e) => set(e.currentTarget.value)} />;
  } else if (field.kind === "text" || field.kind === "number") {
    control = (
      <input
        id={id}
        type={field.kind === "number" ? "number" : "text"}
        min={field.kind === "number" ? field.min : undefined}
        maxLength={field.kind === "text" ? field.maxLength : undefined}
        value={value === null ? "" : String(value)}
        disabled={!allowed}
        aria-describedby={described}
        onInput={(e) => set(e.currentTarget.value)}
      />
    );
  } else {
    const current = field.kind === "time-limit" ? timeLimitOptionValue(value) : String(value ?? "");
    control = (
      <select id={id} value={current} disabled={!allowed} aria-describedby={described} onChange={(e) => set(e.currentTarget.value)}>
        {selectOptions(field, state, value).map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    );
  }
  return (
    <div class="settings-row">
      <label for={id}>
        {field.label}
        {field.kind === "number" && field.unit ? ` (${field.unit})` : ""}
      </label>
      {control}
      {!allowed && field.ownerOnly && <ReadOnlyNote ownerOnly id={noteId} />}
    </div>
  );
}

/**
 * A group of settings with Zulip's "Save changes" / "Discard" bar
 * (https://zulip.com/help/organization-settings): the controls show the saved
 * values (kept live by events) with the reader's edits on top; "Save changes"
 * sends only the changed settings through `save` and shows the server's
 * refusal under the bar; "Discard" drops the edits. Members see the controls
 * disabled with "Only organization administrators can change this".
 */
export function SettingsForm(props: {
  title: string;
  fields: readonly SettingField[];
  saved: Record<string, SettingValue>;
  state: ChatState;
  save(params: Record<string, ParamValue>): Promise<unknown>;
}) {
  const [edits, setEdits] = useState<Record<string, SettingValue>>({});
  const draft = { ...props.saved, ...edits };
  const changed = changedNames(props.fields, props.saved, draft);
  const noteId = useId();
  const action = useAction(async () => {
    await props.save(changedParams(props.fields, props.saved, draft));
    setEdits({});
  });
  const allowedAny = props.fields.some((f) => canChange(props.state, f));
  return (
    <form
      class="settings-form org-form"
      aria-label={props.title}
      onSubmit={(e) => {
        e.preventDefault();
        if (changed.length > 0) void action.run();
      }}
    >
      <h3>{props.title}</h3>
      {!allowedAny && <ReadOnlyNote id={noteId} />}
      {props.fields.map((f) => (
        <SettingRow key={f.name} field={f} value={draft[f.name] ?? null} state={props.state} onChange={(v) => setEdits({ ...edits, [f.name]: v })} />
      ))}
      {changed.length > 0 && (
        <div class="org-save-bar" role="group" aria-label={`${props.title}: unsaved changes`}>
          <button type="submit" class="button-primary" disabled={action.pending}>
            {action.pending ? "Saving…" : "Save changes"}
          </button>
          <button
            type="button"
            onClick={() => {
              setEdits({});
              action.clearError();
            }}
          >
            Discard
          </button>
        </div>
      )}
      <ErrorNote error={action.error} />
    </form>
  );
}
