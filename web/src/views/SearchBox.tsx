import { useEffect, useId, useRef, useState } from "preact/hooks";

/** Props of {@link SearchBox}. */
export interface SearchBoxProps {
  /** The current narrow as a search query (the box shows it, and follows it when it changes). */
  value: string;
  /** Enter: search for the typed query (Zulip's operators as typed). */
  onSearch(query: string): void;
  /** Esc on an empty box (after Esc cleared it): leave the search, e.g. back to the feed. */
  onClear?(): void;
  /** A ref to the input, for a caller that focuses it itself (else {@link focusSearch}). */
  inputRef?: { current: HTMLInputElement | null };
}

/** Zulip's search operators the box suggests (https://zulip.com/help/search-for-messages). */
export const SEARCH_OPERATORS: readonly { operator: string; hint: string }[] = [
  { operator: "channel:", hint: "messages in a stream" },
  { operator: "topic:", hint: "messages in a topic" },
  { operator: "sender:", hint: "messages sent by someone" },
  { operator: "dm:", hint: "direct messages with someone" },
  { operator: "is:", hint: "starred, mentioned, unread, resolved, dm" },
  { operator: "has:", hint: "link, image, attachment, reaction" },
  { operator: "near:", hint: "messages around a message ID" },
];

/**
 * The operators to suggest for the word being typed (the text after the last
 * space): those it is a prefix of, once it is one letter or more and holds no `:` yet.
 */
export function operatorSuggestions(query: string): string[] {
  const word = query.slice(query.lastIndexOf(" ") + 1).replace(/^-/, "").toLowerCase();
  if (!word || word.includes(":")) return [];
  return SEARCH_OPERATORS.map((o) => o.operator).filter((op) => op.startsWith(word) && op !== word);
}

/** Puts `operator` in place of the word being typed, keeping a leading `-` (negation). */
export function applySuggestion(query: string, operator: string): string {
  const start = query.lastIndexOf(" ") + 1;
  const negated = query[start] === "-" ? "-" : "";
  return `${query.slice(0, start)}${negated}${operator}`;
}

let mountedInput: { current: HTMLInputElement | null } | null = null;

/** Focuses (and selects) the mounted search box: the `/` shortcut. */
export function focusSearch(): void {
  const input = mountedInput?.current;
  input?.focus();
  input?.select();
}

/** The search box: Zulip's search operators as typed (`channel:general topic:lunch sender:me words`). */
export function SearchBox(props: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(props.value);
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);
  const ownRef = useRef<HTMLInputElement | null>(null);
  const ref = props.inputRef ?? ownRef;

  useEffect(() => setText(props.value), [props.value]);
  useEffect(() => {
    mountedInput = ref;
    return () => {
      if (mountedInput === ref) mountedInput = null;
    };
  }, [ref]);

  const suggestions = focused ? operatorSuggestions(text) : [];
  const open = suggestions.length > 0;
  const complete = (operator: string) => {
    setText(applySuggestion(text, operator));
    setActive(-1);
  };

  return (
    <form
      role="search"
      class="search-box"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(text.trim());
      }}
    >
      <label class="visually-hidden" for={`${id}-q`}>
        Search
      </label>
      <input
        id={`${id}-q`}
        ref={ref}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={`${id}-ops`}
        aria-activedescendant={open && active >= 0 ? `${id}-op-${active}` : undefined}
        autoComplete="off"
        placeholder="Search"
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={(e) => {
          if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
            e.preventDefault();
            const n = suggestions.length;
            setActive(e.key === "ArrowDown" ? (active + 1) % n : (active - 1 + n) % n);
          } else if (open && (e.key === "Tab" || (e.key === "Enter" && active >= 0))) {
            e.preventDefault();
            complete(suggestions[Math.max(active, 0)]!);
          } else if (e.key === "Escape") {
            // Esc clears the box first; on an empty box it leaves the search.
            e.preventDefault();
            e.stopPropagation();
            if (text) setText("");
            else {
              e.currentTarget.blur();
              props.onClear?.();
            }
          }
        }}
      />
      <ul id={`${id}-ops`} role="listbox" class="typeahead search-suggestions" aria-label="Search operators" hidden={!open}>
        {suggestions.map((op, i) => (
          <li
            key={op}
            id={`${id}-op-${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? "active" : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              complete(op);
            }}
          >
            <span class="typeahead-name">{op}</span>{" "}
            <span class="typeahead-email">{SEARCH_OPERATORS.find((o) => o.operator === op)?.hint}</span>
          </li>
        ))}
      </ul>
    </form>
  );
}
