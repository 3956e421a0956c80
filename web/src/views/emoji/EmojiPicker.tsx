import { createPortal } from "preact/compat";
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  allEmoji,
  CUSTOM_CATEGORY,
  customEmojiEntries,
  loadEmojiCatalog,
  searchEmoji,
  type EmojiCatalog,
  type EmojiEntry,
} from "../../model/emoji/catalog.js";
import { frequentEmoji, recordEmojiUse } from "../../model/emoji/frequent.js";
import type { RealmEmoji } from "../../model/realm-emoji.js";
import { useDismiss } from "../ui/Popover.js";
import { EmojiGlyph } from "./EmojiGlyph.js";
import "../../styles/emoji.css";

/** Emoji per row of the grid (↑/↓ move by a row). */
const COLUMNS = 8;
const WIDTH = 328;
const HEIGHT = 380;

/** A titled run of emoji in the grid. */
interface Section {
  title: string;
  emoji: EmojiEntry[];
}

/** The sections with no search: frequently used, custom, then Zulip's categories. */
function browseSections(catalog: EmojiCatalog, custom: EmojiEntry[], userId: number): Section[] {
  const all = allEmoji(catalog, custom);
  const byKey = new Map(all.map((e) => [`${e.reaction_type}:${e.code}`, e]));
  const frequent = frequentEmoji(localStorage, userId)
    .map((f) => byKey.get(`${f.reaction_type}:${f.code}`))
    .filter((e): e is EmojiEntry => e !== undefined);
  const sections: Section[] = [{ title: "Frequently used", emoji: frequent }];
  if (custom.length > 0) sections.push({ title: CUSTOM_CATEGORY, emoji: custom });
  for (const category of catalog.categories) sections.push({ title: category, emoji: catalog.unicode.filter((e) => e.category === category) });
  return sections;
}

/** Where the picker goes: below the button when it fits, else above; inside the window. */
function placeNear(anchor: HTMLElement): { top: number; left: number } {
  const r = anchor.getBoundingClientRect();
  const w = window.innerWidth;
  const h = window.innerHeight;
  const top = r.bottom + 4 + HEIGHT <= h ? r.bottom + 4 : Math.max(4, r.top - 4 - HEIGHT);
  const left = Math.min(Math.max(4, r.right - WIDTH), Math.max(4, w - WIDTH - 4));
  return { top, left };
}

/**
 * The emoji picker (https://zulip.com/help/emoji-reactions): "Search emoji",
 * then the emoji as buttons named by their names — frequently used first,
 * the organization's custom emoji, then Zulip's categories (a category bar
 * jumps to each). ↓ from the search field enters the grid; arrows move in it;
 * Enter picks (in the search field: the first result); Esc or a click outside
 * closes. Drawn over the page next to `anchor` (a portal, so no scrolling
 * list clips it). Loaded on demand with the emoji list.
 */
export function EmojiPicker(props: {
  anchor: HTMLElement;
  realmEmoji: ReadonlyMap<string, RealmEmoji>;
  userId: number;
  onPick(emoji: EmojiEntry): void;
  onClose(): void;
}) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [catalog, setCatalog] = useState<EmojiCatalog | null>(null);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [place, setPlace] = useState(() => placeNear(props.anchor));
  useDismiss(true, root, props.onClose);

  useEffect(() => {
    loadEmojiCatalog().then(setCatalog, () => setFailed(true));
    search.current?.focus();
  }, []);
  useLayoutEffect(() => {
    const again = () => setPlace(placeNear(props.anchor));
    window.addEventListener("resize", again);
    return () => window.removeEventListener("resize", again);
  }, [props.anchor]);

  const custom = useMemo(() => customEmojiEntries(props.realmEmoji), [props.realmEmoji]);
  const sections = useMemo<Section[]>(() => {
    if (!catalog) return [];
    if (query.trim()) return [{ title: "Search results", emoji: searchEmoji(allEmoji(catalog, custom), query) }];
    return browseSections(catalog, custom, props.userId);
  }, [catalog, custom, query]);
  // Nearly 1,900 buttons: the first sections draw at once, the rest a few per frame, so the picker opens without a pause.
  const [drawn, setDrawn] = useState(3);
  useEffect(() => {
    if (drawn >= sections.length) return;
    const timer = setTimeout(() => setDrawn((n) => n + 2), 16);
    return () => clearTimeout(timer);
  }, [drawn, sections]);
  const visibleSections = sections.slice(0, drawn);
  const flat = visibleSections.flatMap((s) => s.emoji);
  const activeIndex = Math.min(active, Math.max(0, flat.length - 1));

  const pick = (emoji: EmojiEntry) => {
    recordEmojiUse(localStorage, props.userId, { name: emoji.name, code: emoji.code, reaction_type: emoji.reaction_type }, Date.now());
    props.onPick(emoji);
  };
  const focusItem = (i: number) => {
    const to = Math.max(0, Math.min(flat.length - 1, i));
    setActive(to);
    root.current?.querySelector<HTMLButtonElement>(`[data-index="${to}"]`)?.focus();
  };
  const onGridKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (e.key in moves) {
      e.preventDefault();
      const to = activeIndex + moves[e.key]!;
      if (to < 0) return search.current?.focus();
      focusItem(to);
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      focusItem(e.key === "Home" ? 0 : flat.length - 1);
    }
  };

  let index = 0;
  const shown = flat[activeIndex];
  return createPortal(
    <div
      ref={root}
      class="emoji-picker"
      role="dialog"
      aria-label="Emoji picker"
      style={{ top: `${place.top}px`, left: `${place.left}px`, width: `${WIDTH}px`, height: `${HEIGHT}px` }}
      onClick={(e) => e.stopPropagation()}
    >
      <input
        ref={search}
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autoComplete="off"
        value={query}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && flat.length > 0) {
            e.preventDefault();
            focusItem(0);
          } else if (e.key === "Enter") {
            e.preventDefault();
            if (flat[0]) pick(flat[0]);
          }
        }}
      />
      {!query.trim() && catalog && (
        <nav class="emoji-categories" aria-label="Emoji categories">
          {sections.map((s) => (
            <button
              key={s.title}
              type="button"
              tabIndex={-1}
              title={s.title}
              onClick={() => root.current?.querySelector(`[data-section="${CSS.escape(s.title)}"]`)?.scrollIntoView({ block: "start" })}
            >
              {s.title.split(/[\s&]+/)[0]}
            </button>
          ))}
        </nav>
      )}
      <div class="emoji-grid-scroll" onKeyDown={onGridKey}>
        {failed && <p role="alert">The emoji could not be loaded.</p>}
        {!catalog && !failed && <p aria-busy="true">Loading emoji…</p>}
        {catalog && flat.length === 0 && <p class="emoji-none">No emoji match "{query}".</p>}
        {visibleSections.map((s) =>
          s.emoji.length === 0 ? null : (
            <section key={s.title} data-section={s.title} aria-labelledby={`${id}-${s.title}`} class="emoji-section">
              <h3 id={`${id}-${s.title}`} class="emoji-section-title">
                {s.title}
              </h3>
              <div class="emoji-grid">
                {s.emoji.map((e) => {
                  const i = index++;
                  return (
                    <button
                      key={`${e.reaction_type}:${e.code}`}
                      type="button"
                      class="emoji-option"
                      data-index={i}
                      tabIndex={i === activeIndex ? 0 : -1}
                      aria-label={e.name}
                      title={`:${e.name}:`}
                      onFocus={() => setActive(i)}
                      onClick={() => pick(e)}
                    >
                      <EmojiGlyph name={e.name} code={e.code} reactionType={e.reaction_type} url={e.url} />
                    </button>
                  );
                })}
              </div>
            </section>
          ),
        )}
      </div>
      <p class="emoji-preview" aria-hidden="true">
        {shown ? `:${shown.name}:` : ""}
      </p>
    </div>,
    document.body,
  );
}
