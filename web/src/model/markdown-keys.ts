/**
 * Zulip's Markdown shortcuts in the message box
 * (https://zulip.com/help/keyboard-shortcuts#composing-messages and
 * https://zulip.com/help/format-your-message-using-markdown): Ctrl+B bold
 * (`**text**`), Ctrl+I italic (`*text*`), Ctrl+Shift+L a link
 * (`[text](url)`); Cmd instead of Ctrl on macOS.
 */

/** The parts of a `keydown` event that pick a shortcut. */
export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The text and its selection (offsets) before or after a shortcut. */
export interface TextEdit {
  text: string;
  selStart: number;
  selEnd: number;
}

/** Wraps the selection in `mark`, or unwraps it when the marks already surround it. */
function toggleWrap(edit: TextEdit, mark: string): TextEdit {
  const { text, selStart: a, selEnd: b } = edit;
  const n = mark.length;
  const inside = text.slice(a, b);
  if (text.slice(a - n, a) === mark && text.slice(b, b + n) === mark) {
    return { text: text.slice(0, a - n) + inside + text.slice(b + n), selStart: a - n, selEnd: b - n };
  }
  if (inside.length >= 2 * n && inside.startsWith(mark) && inside.endsWith(mark)) {
    const bare = inside.slice(n, inside.length - n);
    return { text: text.slice(0, a) + bare + text.slice(b), selStart: a, selEnd: a + bare.length };
  }
  return { text: text.slice(0, a) + mark + inside + mark + text.slice(b), selStart: a + n, selEnd: b + n };
}

/**
 * The edit a key press makes, or null when it is no Markdown shortcut.
 * Bold and italic wrap the selection (an empty one leaves the caret between
 * the marks) and unwrap it when pressed again; the link shortcut makes
 * `[selection](url)` with `url` selected, ready to be typed over.
 */
export function markdownShortcut(e: ShortcutKey, edit: TextEdit): TextEdit | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (!e.shiftKey && key === "b") return toggleWrap(edit, "**");
  if (!e.shiftKey && key === "i") return toggleWrap(edit, "*");
  if (e.shiftKey && key === "l") {
    const { text, selStart: a, selEnd: b } = edit;
    const link = `[${text.slice(a, b)}](url)`;
    const urlAt = a + link.length - 4;
    return { text: text.slice(0, a) + link + text.slice(b), selStart: urlAt, selEnd: urlAt + 3 };
  }
  return null;
}
