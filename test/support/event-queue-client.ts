import { call, type ApiResponse } from "./api-client.js";

/**
 * A minimal client of the real-time events API (`POST /register`,
 * `GET /events`, `DELETE /events`) over HTTP, the way Zulip's clients use
 * it: register, then long-poll with the highest event ID seen as
 * `last_event_id`. For end-to-end tests.
 *
 * @example
 * const q = new EventQueueClient({ baseUrl: "http://127.0.0.1:9991", email, apiKey, onEvent: validateEvent });
 * await q.register({ event_types: ["message"] });
 * const events = await q.poll(); // blocks up to the server's hold time
 */
export interface EventQueueClientOptions {
  /** Site URL without `/api/v1`. */
  baseUrl: string;
  email: string;
  apiKey: string;
  /** Called on every delivered event (e.g. a schema check that throws). */
  onEvent?: (event: Record<string, unknown>) => void;
}

export class EventQueueClient {
  queueId: string | undefined;
  lastEventId = -1;
  /** The `POST /register` response body. */
  registration: Record<string, any> | undefined;
  /** Every event delivered so far, in order. */
  readonly received: Record<string, any>[] = [];

  constructor(private readonly opts: EventQueueClientOptions) {}

  /** Calls the API as this client's user. */
  async call(method: string, path: string, params: Record<string, unknown> = {}): Promise<ApiResponse> {
    return call(this.opts.baseUrl, { email: this.opts.email, apiKey: this.opts.apiKey }, method, path, params);
  }


  /**
   * Registers a queue.
   * @throws Error when the server refuses
   */
  async register(params: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await this.call("POST", "/register", params);
    if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.registration = res.body;
    this.queueId = res.body.queue_id;
    this.lastEventId = res.body.last_event_id;
    return res.body;
  }

  /**
   * One `GET /events`: acknowledges everything seen so far and returns the
   * new events (after `onEvent` saw each).
   * @throws Error when the server answers with an error
   */
  async poll(opts: { dontBlock?: boolean } = {}): Promise<Record<string, any>[]> {
    const res = await this.call("GET", "/events", {
      queue_id: this.queueId,
      last_event_id: this.lastEventId,
      dont_block: opts.dontBlock ?? false,
    });
    if (res.status !== 200) throw new Error(`poll failed: ${res.status} ${JSON.stringify(res.body)}`);
    const events = res.body.events as Record<string, any>[];
    for (const event of events) {
      this.opts.onEvent?.(event);
      this.lastEventId = Math.max(this.lastEventId, Number(event.id));
      this.received.push(event);
    }
    return events;
  }

  /**
   * Polls until an event matching `predicate` arrives (heartbeats
   * included in what is seen), or `maxPolls` polls have passed.
   * @returns the matching event
   * @throws Error when none came
   */
  async waitFor(
    predicate: (event: Record<string, any>) => boolean,
    opts: { maxPolls?: number; dontBlock?: boolean } = {},
  ): Promise<Record<string, any>> {
    for (let i = 0; i < (opts.maxPolls ?? 5); i++) {
      const found = (await this.poll({ dontBlock: opts.dontBlock })).find(predicate);
      if (found) return found;
    }
    throw new Error(`no matching event; received: ${JSON.stringify(this.received)}`);
  }

  /** Deletes the queue (`DELETE /events`). */
  async delete(): Promise<ApiResponse> {
    return this.call("DELETE", "/events", { queue_id: this.queueId });
  }
}
