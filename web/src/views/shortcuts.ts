import { tinykeys } from "tinykeys";

/** What Zulip's basic keyboard shortcuts do (https://zulip.com/help/keyboard-shortcuts). */
export interface ShortcutHandlers {
  /** `c`: new stream message. */
  composeStream(): void;
  /** `x`: new direct message. */
  composeDirect(): void;
  /** `r` / Enter: reply to the selected message. */
  reply(): void;
  /** `n`: next unread topic. */
  nextUnreadTopic(): void;
  /** `/`: focus the search box. */
  search(): void;
  /** `Esc`: close compose / clear search / back to the feed. */
  escape(): void;
  /** `j` / `k`: select the next / previous message. */
  next(): void;
  previous(): void;
  /** `e`: edit the selected message (the reader's own, where editing is allowed). */
  edit(): void;
  /** `*`: star or unstar the selected message. */
  star(): void;
}

/** The part of an event target the filter looks at (an Element, or a stand-in in tests). */
export interface KeyTarget {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
  closest?(selector: string): unknown;
}

/** `<input>` types that take no typed text: a letter typed on them is a shortcut. */
const NON_TEXT_INPUTS = new Set(["button", "checkbox", "radio", "submit", "reset", "image", "file", "color", "range"]);

/**
 * Whether the key press lands where the person types text (an input, a
 * textarea, a select, anything contenteditable): there shortcuts other than Esc
 * must not fire, as in Zulip.
 */
export function isTypingTarget(target: KeyTarget | null | undefined): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return !NON_TEXT_INPUTS.has((target.type ?? "text").toLowerCase());
  return false;
}

/** Whether Enter on this target already does something of its own (follow a link, press a button). */
export function isActivatable(target: KeyTarget | null | undefined): boolean {
  if (!target) return false;
  const tag = target.tagName?.toUpperCase();
  if (tag === "A" || tag === "BUTTON" || tag === "SUMMARY" || tag === "INPUT") return true;
  return Boolean(target.closest?.('a[href], button, [role="button"], [role="link"], [role="option"], [role="tab"]'));
}

/** The binding of each shortcut: key (tinykeys syntax) → handler name. */
export const SHORTCUT_KEYS: Readonly<Record<string, keyof ShortcutHandlers>> = {
  c: "composeStream",
  x: "composeDirect",
  r: "reply",
  Enter: "reply",
  n: "nextUnreadTopic",
  "/": "search",
  // Keyboards where "/" is a shifted key (German: Shift+7) report it with Shift held.
  "Shift+/": "search",
  Escape: "escape",
  j: "next",
  k: "previous",
  ArrowDown: "next",
  ArrowUp: "previous",
  e: "edit",
  "*": "star",
  // "*" is a shifted key on most keyboards (Shift+8): it arrives with Shift held.
  "Shift+*": "star",
};

/**
 * Decides whether a key press runs its shortcut.
 * @returns false when focus is in a text field (all but Esc), when the page
 *   already handled the key (`defaultPrevented`), or for Enter/arrows on a control that uses them itself
 */
export function shouldRunShortcut(key: string, event: { target: EventTarget | null; defaultPrevented: boolean }): boolean {
  if (event.defaultPrevented) return false;
  const target = event.target as KeyTarget | null;
  if (key === "Escape") return true;
  if (isTypingTarget(target)) return false;
  if ((key === "Enter" || key === "ArrowDown" || key === "ArrowUp") && isActivatable(target)) return false;
  return true;
}

/**
 * Installs Zulip's basic shortcuts on `target` (see {@link SHORTCUT_KEYS});
 * a shortcut that runs has its key's default action prevented (so `/` does
 * not also type into the search box it focuses).
 * @returns the function that removes them
 */
export function installShortcuts(target: Window | HTMLElement, handlers: ShortcutHandlers): () => void {
  const bindings: Record<string, (e: KeyboardEvent) => void> = {};
  for (const [key, name] of Object.entries(SHORTCUT_KEYS)) {
    bindings[key] = (e) => {
      // A modal dialog is open: the page behind takes no shortcuts, and Esc is the dialog's own (it closes it).
      if (document.querySelector("dialog[open]")) return;
      if (!shouldRunShortcut(key, e)) return;
      e.preventDefault();
      handlers[name]();
    };
  }
  return tinykeys(target, bindings);
}
