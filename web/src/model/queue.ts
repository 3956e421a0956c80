/**
 * The event-queue loop (https://zulip.com/api/real-time-events): register a
 * queue, long-poll `GET /events` with `queue_id` and `last_event_id`
 * (https://zulip.com/api/get-events), hand each batch of events over in
 * order, retry network failures and server errors with capped exponential
 * backoff and jitter, register again when the server forgot the queue
 * (`BAD_EVENT_QUEUE_ID`), and stop when the session is gone (401).
 * Time and randomness are injected so tests run it deterministically.
 */
import { ApiError, type ApiClient, type ParamValue } from "../api/client.js";
import type { ServerEvent } from "./types.js";

/** First retry delay, milliseconds. */
export const BACKOFF_BASE_MS = 1_000;
/** Longest retry delay, milliseconds. */
export const BACKOFF_CAP_MS = 30_000;

/**
 * The delay before retry number `attempt` (0-based): `BACKOFF_BASE_MS · 2^attempt`
 * capped at {@link BACKOFF_CAP_MS}, then jittered into [half, all] of it with
 * `random()` in [0, 1), so many clients that lost the server together do not
 * return together. Milliseconds.
 */
export function backoffDelay(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** What the loop is told and what it tells. */
export interface QueueLoopOptions {
  api: ApiClient;
  /** Parameters of `POST /register`. */
  registerParams: Record<string, ParamValue>;
  /** A queue was registered: the whole answer of `POST /register`; `again` when it replaces a lost queue (refetch the open view). */
  onRegister(state: Record<string, unknown>, again: boolean): void;
  /** A batch of events, in order, heartbeats included. */
  onEvents(events: ServerEvent[]): void;
  /** The server answered 401: signed out. The loop has stopped. */
  onSignedOut(): void;
  /** Resolves after `ms` milliseconds (tests pass a fake). */
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1) (tests pass a fixed one). */
  random(): number;
  /** Each failure before its retry, with the delay chosen (for a "reconnecting" notice). */
  onRetry?(error: unknown, delayMs: number): void;
}

/** Whether the server refused the request itself (a 4xx other than rate limiting): polling that queue again cannot help. */
function refused(e: unknown): boolean {
  return e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429;
}

/** The running loop: {@link EventQueueLoop.start} once; {@link EventQueueLoop.stop} to end it (also aborts the pending poll). */
export class EventQueueLoop {
  private stopped = false;
  private abort: AbortController | undefined;
  private queueId: string | undefined;
  private lastEventId = -1;
  private failures = 0;
  private done: Promise<void> | undefined;

  constructor(private readonly opts: QueueLoopOptions) {}

  /** Starts registering and polling; resolves when the loop ends (stopped or signed out). */
  start(): Promise<void> {
    this.done ??= this.run();
    return this.done;
  }

  /** Stops the loop: no further requests or callbacks. */
  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  /** The queue's ID while registered (for `POST /messages` `queue_id`, so local echoes come back with `local_message_id`). */
  get currentQueueId(): string | undefined {
    return this.queueId;
  }

  private async run(): Promise<void> {
    let again = false;
    while (!this.stopped) {
      if (this.queueId === undefined) {
        const state = await this.attempt(() => this.opts.api.call("POST", "/register", this.opts.registerParams));
        if (state === undefined) continue;
        this.queueId = String(state.queue_id);
        this.lastEventId = Number(state.last_event_id ?? -1);
        this.opts.onRegister(state, again);
        again = true;
        continue;
      }
      const answer = await this.attempt(() =>
        this.opts.api.call<{ events: ServerEvent[] }>(
          "GET",
          "/events",
          { queue_id: this.queueId, last_event_id: this.lastEventId },
          { signal: this.abort?.signal },
        ),
      );
      if (answer === undefined || this.stopped) continue;
      if (answer.events.length > 0) {
        this.lastEventId = Math.max(this.lastEventId, ...answer.events.map((e) => e.id));
        this.opts.onEvents(answer.events);
      }
    }
  }

  /**
   * One request: its answer, or undefined after handling a failure:
   * `BAD_EVENT_QUEUE_ID` forgets the queue so the loop registers again at
   * once; 401 stops the loop (signed out); anything else (no answer, 5xx,
   * 429) waits {@link backoffDelay} and tries again, and a refused request
   * (another 4xx) also forgets the queue, to start over with a new one.
   */
  private async attempt<T>(request: () => Promise<T>): Promise<T | undefined> {
    this.abort = new AbortController();
    try {
      const result = await request();
      this.failures = 0;
      return result;
    } catch (e) {
      if (this.stopped) return undefined;
      if (e instanceof ApiError && e.code === "BAD_EVENT_QUEUE_ID") {
        this.queueId = undefined;
        return undefined;
      }
      if (e instanceof ApiError && e.status === 401) {
        this.stopped = true;
        this.opts.onSignedOut();
        return undefined;
      }
      const delay = backoffDelay(this.failures, this.opts.random);
      this.failures += 1;
      this.opts.onRetry?.(e, delay);
      if (refused(e)) this.queueId = undefined;
      await this.opts.sleep(delay);
      return undefined;
    }
  }
}
