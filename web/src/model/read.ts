/**
 * Marking messages read as they are seen (https://zulip.com/help/marking-messages-as-read):
 * a message shown in the viewport while the window has focus, in a view that
 * marks messages read (`viewMarksRead` in narrow.ts: the combined feed, a
 * stream, a topic, a conversation; not search), becomes read. The IDs seen
 * are gathered and sent together in one `POST /messages/flags`
 * (https://zulip.com/api/update-message-flags, `op` add, `flag` read) per
 * short interval, and applied to the local state at once so counts drop
 * without waiting for the server's event.
 */
import type { ApiClient } from "../api/client.js";

/** How long seen IDs gather before one request (Zulip's client batches similarly). Milliseconds. */
export const READ_BATCH_MS = 500;

/** What the tracker needs. */
export interface ReadTrackerOptions {
  api: ApiClient;
  /** Runs `fn` after `ms` milliseconds (tests pass a fake). */
  schedule(fn: () => void, ms: number): void;
  /** The IDs just marked, to apply locally (as an `update_message_flags` add of `read`). */
  onMarked(ids: number[]): void;
  /** A request failed; its IDs may be sent again if reported seen again. */
  onError?(error: unknown): void;
}

/** Gathers seen unread message IDs and marks them read in batches. */
export class ReadTracker {
  private pending = new Set<number>();
  private sent = new Set<number>();
  private scheduled = false;

  constructor(private readonly opts: ReadTrackerOptions) {}

  /**
   * Reports messages the reader saw. Only unread ones should be passed, and
   * only while the window has focus in a view that marks read; IDs already
   * sent are ignored, and local echoes (non-integer or unconfirmed IDs) are not sent.
   */
  seen(ids: readonly number[]): void {
    let added = false;
    for (const id of ids) {
      if (!Number.isInteger(id) || this.sent.has(id) || this.pending.has(id)) continue;
      this.pending.add(id);
      added = true;
    }
    if (added && !this.scheduled) {
      this.scheduled = true;
      this.opts.schedule(() => void this.flush(), READ_BATCH_MS);
    }
  }

  /**
   * Forgets messages that became unread again (marked unread here or
   * elsewhere): seen later, they are marked read once more.
   */
  unread(ids: readonly number[]): void {
    for (const id of ids) {
      this.sent.delete(id);
      this.pending.delete(id);
    }
  }

  /** Sends what is pending now, in one request. */
  async flush(): Promise<void> {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const ids = [...this.pending].sort((a, b) => a - b);
    this.pending.clear();
    for (const id of ids) this.sent.add(id);
    this.opts.onMarked(ids);
    try {
      await this.opts.api.call("POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
    } catch (e) {
      // Forget them, so the next time they are seen (still unread on the server) they are sent again.
      for (const id of ids) this.sent.delete(id);
      this.opts.onError?.(e);
    }
  }
}

/**
 * Which of the rendered messages count as seen: those whose box is at least
 * partly inside the viewport (top below the viewport's top, bottom above its
 * bottom, in the same coordinates, pixels) and not read yet.
 */
export function visibleUnread(
  rows: readonly { id: number; top: number; bottom: number; read: boolean }[],
  viewportTop: number,
  viewportBottom: number,
): number[] {
  return rows.filter((r) => !r.read && r.bottom > viewportTop && r.top < viewportBottom).map((r) => r.id);
}
