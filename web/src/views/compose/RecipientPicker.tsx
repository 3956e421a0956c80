import { useId, useState } from "preact/hooks";
import { matchPeople } from "./people.js";
import type { ComposePerson } from "./types.js";

/** Props of {@link RecipientPicker}. */
export interface RecipientPickerProps {
  people: ComposePerson[];
  /** The chosen people's IDs, in the order chosen. */
  selected: number[];
  onChange(userIds: number[]): void;
  /** The field's label (default "To"). */
  label?: string;
  /** The accessible name of the chosen people's list (default "Recipients"). */
  listLabel?: string;
  inputRef?: { current: HTMLInputElement | null };
}

/**
 * The direct-message recipients field: a combobox that finds people by name or
 * email (ARIA 1.2 combobox with a listbox popup: ↑/↓ move, Enter or Tab
 * chooses, Esc closes the list), the chosen ones shown as pills each with a
 * remove button; Backspace in the empty field removes the last one.
 */
export function RecipientPicker(props: RecipientPickerProps) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const chosen = new Set(props.selected);
  const matches = dismissed ? [] : matchPeople(props.people, query, chosen);
  const open = matches.length > 0;
  const activeIndex = Math.min(active, matches.length - 1);
  const byId = new Map(props.people.map((p) => [p.user_id, p]));

  const choose = (person: ComposePerson) => {
    props.onChange([...props.selected, person.user_id]);
    setQuery("");
    setActive(0);
  };
  const remove = (userId: number) => props.onChange(props.selected.filter((x) => x !== userId));

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" && open) {
      e.preventDefault();
      setActive((activeIndex + 1) % matches.length);
    } else if (e.key === "ArrowUp" && open) {
      e.preventDefault();
      setActive((activeIndex - 1 + matches.length) % matches.length);
    } else if ((e.key === "Enter" || e.key === "Tab") && open) {
      e.preventDefault();
      choose(matches[activeIndex]!);
    } else if (e.key === "Escape" && open) {
      // Closes the list only; a second Esc reaches the compose box.
      e.stopPropagation();
      setDismissed(true);
    } else if (e.key === "Backspace" && query === "" && props.selected.length > 0) {
      remove(props.selected[props.selected.length - 1]!);
    } else if (e.key === "Enter") {
      // Enter in an empty recipients field must not submit the compose form.
      e.preventDefault();
    }
  };

  return (
    <div class="recipient-picker">
      <label for={`${id}-input`}>{props.label ?? "To"}</label>
      <div class="recipient-field">
        <ul class="pills" aria-label={props.listLabel ?? "Recipients"}>
          {props.selected.map((userId) => {
            const person = byId.get(userId);
            const name = person?.full_name ?? `User ${userId}`;
            return (
              <li key={userId} class="pill">
                <span>{name}</span>
                <button type="button" aria-label={`Remove ${name}`} onClick={() => remove(userId)}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
        <input
          id={`${id}-input`}
          ref={props.inputRef}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={`${id}-list`}
          aria-activedescendant={open ? `${id}-opt-${matches[activeIndex]!.user_id}` : undefined}
          placeholder={props.selected.length ? "" : "Name or email"}
          value={query}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setActive(0);
            setDismissed(false);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissed(true)}
          onFocus={() => setDismissed(false)}
        />
      </div>
      <ul id={`${id}-list`} role="listbox" class="typeahead" aria-label="People" hidden={!open}>
        {matches.map((person, i) => (
          <li
            key={person.user_id}
            id={`${id}-opt-${person.user_id}`}
            role="option"
            aria-selected={i === activeIndex}
            class={i === activeIndex ? "active" : undefined}
            // mousedown, not click: it comes before the input's blur closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(person);
            }}
          >
            <span class="typeahead-name">{person.full_name}</span> <span class="typeahead-email">{person.email}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
