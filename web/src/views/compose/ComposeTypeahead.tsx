import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { allEmoji, customEmojiEntries, loadEmojiCatalog, type EmojiCatalog } from "../../model/emoji/catalog.js";
import { markdownShortcut } from "../../model/markdown-keys.js";
import type { RealmEmoji } from "../../model/realm-emoji.js";
import { findTrigger, matchTopics, suggestionsFor, type Suggestion, type TypeaheadSource } from "../../model/typeahead.js";
import { EmojiGlyph } from "../emoji/EmojiGlyph.js";

/** What the compose box's typeahead needs beyond its people and streams. */
export interface ComposeTypeaheadData {
  /** Senders of the open view's messages, most recent first (they come first among `@` suggestions). */
  recentSenders: readonly number[];
  groups: TypeaheadSource["groups"];
  /** A stream's topic names, newest first; undefined until fetched. */
  topics(streamId: number): readonly string[] | undefined;
  /** Fetches a stream's topics (`GET /users/me/{stream_id}/topics`) into `topics`. */
  loadTopics(streamId: number): void;
  realmEmoji: ReadonlyMap<string, RealmEmoji>;
  userId: number;
}

/** A completion in progress: the span of text a choice replaces, and the suggestions. */
interface Completion {
  start: number;
  end: number;
  suggestions: Suggestion[];
}

type Field = HTMLTextAreaElement | HTMLInputElement;

/**
 * A typeahead list under a text field (ARIA listbox; the field points at the
 * active option with `aria-activedescendant`): ↑/↓ move, Enter or Tab
 * chooses, Esc closes the list only (the next change opens it again), a click
 * chooses. `complete` says what the text at the caret asks for.
 * @returns the field's attributes, its key handler (true when the key was the list's), and the list to render
 */
function useTypeahead(opts: {
  id: string;
  label: string;
  field: RefObject<Field>;
  value: string;
  setValue(text: string): void;
  complete(text: string, caret: number): Completion | null;
  /** The field is a combobox (an input); a textarea keeps its textbox role. */
  combobox?: boolean;
}) {
  const [, setTick] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  const caretAfter = useRef<number | null>(null);
  const el = opts.field.current;
  const caret = el && el.selectionStart === el.selectionEnd ? (el.selectionStart ?? opts.value.length) : -1;
  const completion = focused && caret >= 0 && dismissedFor !== opts.value ? opts.complete(opts.value, caret) : null;
  const items = completion?.suggestions ?? [];
  const open = items.length > 0;
  const activeIndex = Math.min(active, items.length - 1);

  useLayoutEffect(() => {
    if (caretAfter.current === null || !opts.field.current) return;
    opts.field.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
    setTick((t) => t + 1);
  });

  const choose = (s: Suggestion) => {
    if (!completion) return;
    const text = opts.value.slice(0, completion.start) + s.insert + opts.value.slice(completion.end).replace(s.insert.endsWith(" ") ? /^ / : /^$/, "");
    caretAfter.current = completion.start + s.insert.length;
    setActive(0);
    opts.setValue(text);
  };
  const refresh = () => setTick((t) => t + 1);

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open || e.isComposing) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((activeIndex + (e.key === "ArrowDown" ? 1 : -1) + items.length) % items.length);
    } else if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      choose(items[activeIndex]!);
    } else if (e.key === "Escape") {
      e.preventDefault();
      // Closes the list only; a second Esc reaches the compose box.
      e.stopPropagation();
      setDismissedFor(opts.value);
    } else return false;
    return true;
  };

  const optionId = (s: Suggestion) => `${opts.id}-opt-${s.key.replace(/[^\w-]/g, "_")}`;
  const fieldProps = {
    role: opts.combobox ? ("combobox" as const) : undefined,
    "aria-expanded": opts.combobox ? open : undefined,
    "aria-autocomplete": "list" as const,
    "aria-controls": `${opts.id}-list`,
    "aria-activedescendant": open ? optionId(items[activeIndex]!) : undefined,
    onKeyUp: (e: KeyboardEvent) => {
      if (!["ArrowDown", "ArrowUp", "Enter", "Tab", "Escape"].includes(e.key)) refresh();
    },
    onClick: refresh,
    onFocus: () => setFocused(true),
    onBlur: () => setFocused(false),
  };
  const listbox = (
    <ul id={`${opts.id}-list`} role="listbox" class="typeahead compose-typeahead" aria-label={opts.label} hidden={!open}>
      {items.map((s, i) => (
        <li
          key={s.key}
          id={optionId(s)}
          role="option"
          aria-selected={i === activeIndex}
          class={i === activeIndex ? "active" : undefined}
          // mousedown, not click: it comes before the field's blur closes the list.
          onMouseDown={(e) => {
            e.preventDefault();
            choose(s);
          }}
        >
          {s.emoji && (
            <span class="typeahead-emoji" aria-hidden="true">
              <EmojiGlyph name={s.emoji.name} code={s.emoji.code} reactionType={s.emoji.reaction_type} url={s.emoji.url} />
            </span>
          )}
          <span class="typeahead-name">{s.emoji ? `:${s.label}:` : s.label}</span>
          {s.detail && <span class="typeahead-email"> {s.detail}</span>}
        </li>
      ))}
    </ul>
  );
  return { fieldProps, onKeyDown, listbox, open };
}

/**
 * The message field's typeahead and Markdown shortcuts: `@` people, groups
 * and wildcards (`@_` silent), `#` streams, `#stream>` topics, `:` emoji
 * (the emoji list loads with the first `:` query), in the order and syntax of
 * `model/typeahead.ts`; Ctrl/Cmd+B, +I and +Shift+L format the selection
 * (`model/markdown-keys.ts`).
 */
export function useMessageTypeahead(opts: {
  id: string;
  field: RefObject<HTMLTextAreaElement>;
  value: string;
  setValue(text: string): void;
  people: TypeaheadSource["people"];
  streams: TypeaheadSource["streams"];
  inStream: boolean;
  data: ComposeTypeaheadData | undefined;
}) {
  const [catalog, setCatalog] = useState<EmojiCatalog | null>(null);
  const asked = useRef(new Set<number>());
  const pending = useRef<{ wantEmoji: boolean; topicStream?: number }>({ wantEmoji: false });
  const data = opts.data;

  const complete = (text: string, caret: number): Completion | null => {
    const trigger = findTrigger(text, caret);
    if (!trigger || !data) return null;
    if (trigger.kind === "emoji" && !catalog) pending.current.wantEmoji = true;
    if (trigger.kind === "topic") {
      const stream = opts.streams.find((s) => s.name.toLowerCase() === trigger.stream.toLowerCase());
      if (stream && !data.topics(stream.stream_id)) pending.current.topicStream = stream.stream_id;
    }
    const source: TypeaheadSource = {
      people: opts.people,
      recentSenders: data.recentSenders,
      groups: data.groups,
      streams: opts.streams,
      topics: data.topics,
      emoji: trigger.kind === "emoji" ? allEmoji(catalog, customEmojiEntries(data.realmEmoji)) : [],
      inStream: opts.inStream,
    };
    return { start: trigger.start, end: caret, suggestions: suggestionsFor(source, trigger) };
  };
  const ta = useTypeahead({ id: opts.id, label: "Suggestions", field: opts.field, value: opts.value, setValue: opts.setValue, complete });

  useEffect(() => {
    const want = pending.current;
    pending.current = { wantEmoji: false };
    if (want.wantEmoji) loadEmojiCatalog().then(setCatalog, () => undefined);
    if (want.topicStream !== undefined && !asked.current.has(want.topicStream)) {
      asked.current.add(want.topicStream);
      data?.loadTopics(want.topicStream);
    }
  });

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (ta.onKeyDown(e)) return true;
    const el = opts.field.current;
    if (!el) return false;
    const edit = markdownShortcut(e, { text: opts.value, selStart: el.selectionStart, selEnd: el.selectionEnd });
    if (!edit) return false;
    e.preventDefault();
    opts.setValue(edit.text);
    requestAnimationFrame(() => el.setSelectionRange(edit.selStart, edit.selEnd));
    return true;
  };
  return { ...ta, onKeyDown };
}

/**
 * The topic field's typeahead: the chosen stream's topics (fetched when first
 * needed) matching what is typed; nothing while the field is empty, so Tab
 * still moves on from it.
 */
export function useTopicTypeahead(opts: {
  id: string;
  field: RefObject<HTMLInputElement>;
  value: string;
  setValue(text: string): void;
  streamId: number | null;
  data: ComposeTypeaheadData | undefined;
}) {
  const asked = useRef(new Set<number>());
  const { streamId, data } = opts;
  const topics = streamId !== null ? data?.topics(streamId) : undefined;
  useEffect(() => {
    if (streamId === null || !data || topics || asked.current.has(streamId)) return;
    asked.current.add(streamId);
    data.loadTopics(streamId);
  }, [streamId, topics]);
  const complete = (text: string): Completion | null =>
    topics && text.trim() ? { start: 0, end: text.length, suggestions: matchTopics(topics, text).map((t) => ({ key: `topic-${t}`, label: t, insert: t })) } : null;
  // The field keeps its textbox role ("Topic"): the list is announced through aria-activedescendant.
  return useTypeahead({ id: opts.id, label: "Topics", field: opts.field, value: opts.value, setValue: opts.setValue, complete });
}

/** Puts `text` at the caret of `field` (replacing a selection) and the caret after it. */
export function insertAtCaret(field: HTMLTextAreaElement | null, value: string, setValue: (text: string) => void, text: string): void {
  const start = field?.selectionStart ?? value.length;
  const end = field?.selectionEnd ?? value.length;
  const before = value.slice(0, start);
  const pad = before && !/\s$/.test(before) ? " " : "";
  setValue(before + pad + text + value.slice(end));
  const at = start + pad.length + text.length;
  requestAnimationFrame(() => {
    field?.focus();
    field?.setSelectionRange(at, at);
  });
}
