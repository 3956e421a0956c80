/** The parts of a `keydown` event that decide what Enter does in the message field. */
export interface EnterKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An input method is composing (Enter confirms the composition, never sends). */
  isComposing?: boolean;
}

/**
 * What a key press in the message field does: `"send"` the message, or
 * `"default"` (the browser's own behaviour: a newline for Enter).
 *
 * Zulip's rule (https://zulip.com/help/configure-send-message-keys): with
 * "Enter to send" on, Enter sends and Shift+Enter makes a newline; with it off,
 * Enter makes a newline. Ctrl+Enter (Cmd+Enter on macOS) sends in both modes.
 * @param enterSends the person's "Enter sends" setting
 */
export function enterKeyAction(e: EnterKey, enterSends: boolean): "send" | "default" {
  if (e.key !== "Enter" || e.isComposing) return "default";
  if (e.shiftKey || e.altKey) return "default";
  if (e.ctrlKey || e.metaKey) return "send";
  return enterSends ? "send" : "default";
}
