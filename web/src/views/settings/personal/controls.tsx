import type { ComponentChildren } from "preact";
import { useEffect, useId, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";

/**
 * Saves one personal setting (`PATCH /settings`, https://zulip.com/api/update-settings):
 * booleans and numbers go JSON-encoded, strings as they are. The state
 * follows from the `user_settings` event the server sends back.
 * @throws ApiError with the server's message (an invalid value, …)
 */
export async function saveSetting(chat: Chat, name: string, value: string | number | boolean): Promise<void> {
  await chat.api.call("PATCH", "/settings", { [name]: value });
}

/**
 * The value a control shows for one setting: what the person just chose
 * while it is being saved, then the server's value once its event arrives
 * (or again the server's value when the save failed).
 */
function useSettingValue<T>(chat: Chat, name: string, stored: T, encode: (v: T) => string | number | boolean = (v) => v as string) {
  const [wanted, setWanted] = useState<{ value: T } | null>(null);
  const action = useAction(async (value: T) => {
    setWanted({ value });
    try {
      await saveSetting(chat, name, encode(value));
    } catch (err) {
      setWanted(null);
      throw err;
    }
  });
  useEffect(() => setWanted(null), [stored]);
  return { value: wanted ? wanted.value : stored, action };
}

/** A checkbox for one boolean personal setting, labelled `label`, saved when it changes; the server's refusal shows under it. */
export function SettingToggle(props: { chat: Chat; settings: Readonly<Record<string, unknown>>; name: string; label: string; hint?: string }) {
  const id = useId();
  const { value, action } = useSettingValue(props.chat, props.name, props.settings[props.name] === true);
  return (
    <div class="settings-row inline settings-toggle">
      <input
        id={id}
        type="checkbox"
        checked={value}
        disabled={action.pending}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => void action.run((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{props.label}</label>
      {props.hint && (
        <span class="settings-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}

/** One choice of a {@link SettingSelect}. */
export interface Choice<T extends string | number> {
  value: T;
  label: string;
}

/**
 * A select for one personal setting with fixed choices (numbers or strings), saved when it changes.
 * A setting of another type (a boolean shown as two choices) passes `decode` (stored → choice) and `encode` (choice → sent).
 */
export function SettingSelect<T extends string | number>(props: {
  chat: Chat;
  settings: Readonly<Record<string, unknown>>;
  name: string;
  label: string;
  choices: readonly Choice<T>[];
  decode?(stored: unknown): T;
  encode?(value: T): string | number | boolean;
}) {
  const id = useId();
  const raw = props.settings[props.name];
  const stored = props.decode ? props.decode(raw) : (raw as T);
  const { value, action } = useSettingValue(props.chat, props.name, stored, props.encode);
  const numeric = typeof props.choices[0]?.value === "number";
  return (
    <div class="settings-row">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={String(value)}
        disabled={action.pending}
        onChange={(e) => {
          const raw = (e.currentTarget as HTMLSelectElement).value;
          void action.run((numeric ? Number(raw) : raw) as T);
        }}
      >
        {props.choices.map((c) => (
          <option key={c.value} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
      <ErrorNote error={action.error} />
    </div>
  );
}

/** A titled group of controls in a section (`fieldset` with its legend). */
export function SettingsGroup(props: { title: string; children: ComponentChildren }) {
  return (
    <fieldset class="settings-group">
      <legend>{props.title}</legend>
      {props.children}
    </fieldset>
  );
}

/** A "Copy" button that puts `text` on the clipboard and says so; its accessible name is `label`. */
export function CopyButton(props: { text: string; label: string }) {
  const [done, setDone] = useState<string | null>(null);
  return (
    <span class="copy-button">
      <button
        type="button"
        onClick={() =>
          navigator.clipboard.writeText(props.text).then(
            () => setDone("Copied!"),
            () => setDone("Could not copy: select the text and copy it."),
          )
        }
      >
        {props.label}
      </button>
      <span role="status">{done}</span>
    </span>
  );
}
