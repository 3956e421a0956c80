/**
 * When to tell the server the person is typing, as Zulip's clients do
 * (https://zulip.com/api/set-typing-status): `start` when typing begins and
 * again every 10 s while it goes on (the server's notice expires after 15 s),
 * `stop` after 5 s without a keystroke, when the message is sent or emptied,
 * and for the old conversation when the recipient changes.
 */

/** Where typing is happening, in the shape of `POST /typing`'s parameters. */
export type TypingRecipient = { type: "stream"; stream_id: number; topic: string } | { type: "direct"; to: number[] };

/** The clock the notifier reads and schedules with (the browser's by default; tests pass a fake). */
export interface TypingClock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const browserClock: TypingClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Zulip's `TYPING_STARTED_WAIT_PERIOD`: how often `start` is repeated while typing goes on (ms). */
export const START_INTERVAL_MS = 10_000;
/** Zulip's `TYPING_STOPPED_WAIT_PERIOD`: idle time after which `stop` is sent (ms). */
export const IDLE_STOP_MS = 5_000;

function sameRecipient(a: TypingRecipient, b: TypingRecipient): boolean {
  if (a.type === "stream" && b.type === "stream") return a.stream_id === b.stream_id && a.topic === b.topic;
  if (a.type === "direct" && b.type === "direct") return [...a.to].sort().join() === [...b.to].sort().join();
  return false;
}

/** Sends `start`/`stop` at the pace described in the module comment. */
export class TypingNotifier {
  private current: TypingRecipient | null = null;
  private lastStart = 0;
  private idleTimer: unknown = null;

  /**
   * @param send posts one notification (`POST /typing`); its failures are the caller's to swallow
   */
  constructor(
    private readonly send: (op: "start" | "stop", to: TypingRecipient) => void,
    private readonly clock: TypingClock = browserClock,
  ) {}

  /**
   * Records a keystroke in the message field.
   * @param to where the message would go; null when there is none yet (no stream or no recipients)
   * @param hasContent whether the field still holds text (emptying it stops the notice)
   */
  typed(to: TypingRecipient | null, hasContent: boolean): void {
    if (this.current && (!to || !sameRecipient(this.current, to))) this.stop();
    if (!to || !hasContent) {
      this.stop();
      return;
    }
    const now = this.clock.now();
    if (!this.current || now - this.lastStart >= START_INTERVAL_MS) {
      this.current = to;
      this.lastStart = now;
      this.send("start", to);
    }
    if (this.idleTimer !== null) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.stop();
    }, IDLE_STOP_MS);
  }

  /** Sends `stop` if a `start` is in force (on send, on close, on idle). */
  stop(): void {
    if (this.idleTimer !== null) {
      this.clock.clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (!this.current) return;
    const was = this.current;
    this.current = null;
    this.send("stop", was);
  }
}
