/**
 * Load drivers: concurrent HTTP clients that play Zulip clients against the
 * local stack. They run in a worker thread (see `driver-worker.ts`) so that
 * the clients' own work — building requests, parsing JSON — does not run
 * on the event loop that serves the API. Every loop is bounded by a count
 * or a deadline.
 */
import { setMaxListeners } from "node:events";
import { ApiClient, type Credentials } from "./http.js";

/** Latencies (ms) and errors of a batch of requests. */
export interface RequestStats {
  latencies: number[];
  errors: number;
  /** Up to five error descriptions, for the report. */
  errorSamples: string[];
  /** Wall time from the first request to the last answer, ms. */
  elapsedMs: number;
}

function noteError(stats: RequestStats, what: string): void {
  stats.errors++;
  if (stats.errorSamples.length < 5) stats.errorSamples.push(what.slice(0, 300));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Wall clock with sub-millisecond resolution, shared by senders and pollers of one worker. */
const now = () => performance.timeOrigin + performance.now();

/**
 * Runs `count` calls of `one` with `concurrency` closed-loop workers (each
 * starts its next call when its previous one answered), after `warmup`
 * unmeasured calls.
 */
async function closedLoop(
  count: number,
  concurrency: number,
  warmup: number,
  one: (i: number) => Promise<{ ok: boolean; ms: number; error?: string }>,
): Promise<RequestStats> {
  for (let i = 0; i < warmup; i++) await one(-1 - i).catch(() => undefined);
  const stats: RequestStats = { latencies: [], errors: 0, errorSamples: [], elapsedMs: 0 };
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        try {
          const r = await one(i);
          if (r.ok) stats.latencies.push(r.ms);
          else noteError(stats, r.error ?? "failed");
        } catch (err) {
          noteError(stats, String(err));
        }
      }
    }),
  );
  stats.elapsedMs = performance.now() - start;
  return stats;
}

export interface SendTask {
  baseUrl: string;
  /** Concurrent sender `i` posts as `senders[i % senders.length]`. */
  senders: Credentials[];
  stream: string;
  topic: string;
  count: number;
  concurrency: number;
  warmup: number;
}

/** `POST /messages` to one stream, `count` times with `concurrency` senders. */
export async function runSends(task: SendTask): Promise<RequestStats> {
  const client = new ApiClient(task.baseUrl);
  try {
    return await closedLoop(task.count, task.concurrency, task.warmup, async (i) => {
      const sender = task.senders[Math.abs(i) % task.senders.length]!;
      const r = await client.call(sender, "POST", "/messages", {
        type: "stream",
        to: task.stream,
        topic: task.topic,
        content: `Bench message ${i} with a little text, like a real one would have.`,
      });
      return { ok: r.status === 200 && r.body.result === "success", ms: r.ms, error: `${r.status} ${JSON.stringify(r.body)}` };
    });
  } finally {
    client.close();
  }
}

export interface GetTask {
  baseUrl: string;
  user: Credentials;
  /** `GET /messages` parameters (narrow as a list; the client JSON-encodes it). */
  params: Record<string, unknown>;
  count: number;
  concurrency: number;
  warmup: number;
}

/** `GET /messages` with fixed parameters; also reports how many messages the answers held. */
export async function runGets(task: GetTask): Promise<RequestStats & { messagesPerAnswer: number }> {
  const client = new ApiClient(task.baseUrl);
  let returned = 0;
  let answers = 0;
  try {
    const stats = await closedLoop(task.count, task.concurrency, task.warmup, async () => {
      const r = await client.call(task.user, "GET", "/messages", task.params);
      const ok = r.status === 200 && r.body.result === "success";
      if (ok) {
        returned += (r.body.messages as unknown[]).length;
        answers++;
      }
      return { ok, ms: r.ms, error: `${r.status} ${JSON.stringify(r.body).slice(0, 200)}` };
    });
    return { ...stats, messagesPerAnswer: answers ? returned / answers : Number.NaN };
  } finally {
    client.close();
  }
}

/** One long-polling client. */
interface Poller {
  user: Credentials;
  queueId: string;
  lastEventId: number;
  /** Index of the stream this poller's user is subscribed to. */
  stream: number;
  dead: boolean;
}

/** Counters of the long-polling clients since they started. */
export interface PollStats {
  pollers: number;
  /** Completed `GET /events` answers (events or heartbeat). */
  polls: number;
  heartbeats: number;
  messageEvents: number;
  errors: number;
  errorSamples: string[];
  /** Pollers whose queue was refused (`BAD_EVENT_QUEUE_ID`) and stopped. */
  deadQueues: number;
}

export interface DeliverTask {
  senders: Credentials[];
  /** Stream names; send `k` goes to `streams[k % streams.length]`. */
  streams: string[];
  /** Sends per second (open loop: a late answer does not delay the next send). */
  rate: number;
  durationMs: number;
  /** After the last send, how long to wait for missing deliveries. */
  graceMs: number;
}

export interface DeliverResult {
  sends: RequestStats;
  /** Per delivered event: arrival at a poller minus the instant before its send request, ms. */
  deliveries: number[];
  /** Per send: arrival at the last of its pollers minus the send instant, ms (sends fully delivered only). */
  fanoutComplete: number[];
  expected: number;
  delivered: number;
  /** Per send: its instant (as in the content), when its answer came, first and last arrival at a client (wall-clock ms). */
  perSend: { ts: string; messageId: number | undefined; answered: number; first: number; last: number; arrived: number; expected: number }[];
  /** Sends not started on time because 64 were already in flight. */
  lateSends: number;
}

const TS_PATTERN = /bench-ts=(\d+(?:\.\d+)?)/;

/**
 * Long-polling clients and the senders whose messages they wait for. State
 * lives across calls: register, start, (idle), deliver, stop.
 */
export class EventsSession {
  private readonly client: ApiClient;
  private readonly pollers: Poller[] = [];
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];
  private stopped = false;
  readonly stats: PollStats = { pollers: 0, polls: 0, heartbeats: 0, messageEvents: 0, errors: 0, errorSamples: [], deadQueues: 0 };
  /** Send instant (as sent in the content) → [pollers expected, pollers arrived, latest arrival]. */
  private readonly inFlight = new Map<
    string,
    { expected: number; arrived: number; first: number; last: number; answered: number; messageId?: number }
  >();
  private deliveries: number[] | undefined;

  constructor(baseUrl: string) {
    this.client = new ApiClient(baseUrl);
    // One signal aborts every held poll; hundreds of listeners on it are expected.
    setMaxListeners(0, this.abort.signal);
  }

  /**
   * `POST /register` for every user (message events only, raw Markdown so
   * the content's send instant is readable), `concurrency` at once.
   * @param users `[credentials, stream index]`
   * @returns the registrations' latencies
   */
  async register(users: { user: Credentials; stream: number }[], concurrency: number): Promise<RequestStats> {
    const stats = await closedLoop(users.length, concurrency, 0, async (i) => {
      const { user, stream } = users[i]!;
      const r = await this.client.call(user, "POST", "/register", {
        event_types: ["message"],
        fetch_event_types: ["message"],
        apply_markdown: false,
        client_gravatar: true,
      });
      const ok = r.status === 200 && typeof r.body.queue_id === "string";
      if (ok) this.pollers.push({ user, queueId: r.body.queue_id, lastEventId: r.body.last_event_id ?? -1, stream, dead: false });
      return { ok, ms: r.ms, error: `${r.status} ${JSON.stringify(r.body).slice(0, 200)}` };
    });
    this.stats.pollers = this.pollers.length;
    return stats;
  }

  /** Starts one long-poll loop per registered queue (returns at once). */
  start(): void {
    this.loops = this.pollers.map((p) => this.pollLoop(p));
  }

  private async pollLoop(p: Poller): Promise<void> {
    while (!this.stopped && !p.dead) {
      let r;
      try {
        r = await this.client.call(
          p.user,
          "GET",
          "/events",
          { queue_id: p.queueId, last_event_id: p.lastEventId },
          { signal: this.abort.signal, timeoutMs: 95_000 },
        );
      } catch (err) {
        if (this.stopped) return;
        this.noteError(String(err));
        await sleep(250);
        continue;
      }
      const arrival = now();
      if (r.status !== 200) {
        if (r.body.code === "BAD_EVENT_QUEUE_ID") {
          p.dead = true;
          this.stats.deadQueues++;
        }
        this.noteError(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        await sleep(250);
        continue;
      }
      this.stats.polls++;
      for (const ev of (r.body.events ?? []) as { id: number; type: string; message?: { content?: string } }[]) {
        if (ev.id > p.lastEventId) p.lastEventId = ev.id;
        if (ev.type === "heartbeat") this.stats.heartbeats++;
        if (ev.type !== "message") continue;
        this.stats.messageEvents++;
        const ts = TS_PATTERN.exec(ev.message?.content ?? "")?.[1];
        if (!ts || !this.deliveries) continue;
        const entry = this.inFlight.get(ts);
        if (!entry) continue;
        this.deliveries.push(arrival - Number(ts));
        entry.arrived++;
        entry.first = entry.first === 0 ? arrival : Math.min(entry.first, arrival);
        entry.last = Math.max(entry.last, arrival);
      }
    }
  }

  private noteError(what: string): void {
    this.stats.errors++;
    if (this.stats.errorSamples.length < 5) this.stats.errorSamples.push(what.slice(0, 300));
  }

  /**
   * Sends at a fixed rate while the pollers run, then waits (up to
   * `graceMs`) until every subscribed poller got every message.
   */
  async deliver(task: DeliverTask): Promise<DeliverResult> {
    const perStream = task.streams.map((_, k) => this.pollers.filter((p) => p.stream === k && !p.dead).length);
    const deliveries: number[] = [];
    this.deliveries = deliveries;
    this.inFlight.clear();
    const sends: RequestStats = { latencies: [], errors: 0, errorSamples: [], elapsedMs: 0 };
    const total = Math.max(1, Math.round((task.rate * task.durationMs) / 1000));
    const start = performance.now();
    const pending = new Set<Promise<void>>();
    let expected = 0;
    let lateSends = 0;
    for (let k = 0; k < total; k++) {
      const due = start + (k * 1000) / task.rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      while (pending.size >= 64) {
        lateSends++;
        await Promise.race(pending);
      }
      const stream = k % task.streams.length;
      const sentAt = now();
      const ts = sentAt.toFixed(3);
      const entry: { expected: number; arrived: number; first: number; last: number; answered: number; messageId?: number } = {
        expected: perStream[stream]!,
        arrived: 0,
        first: 0,
        last: 0,
        answered: 0,
      };
      this.inFlight.set(ts, entry);
      expected += perStream[stream]!;
      const sender = task.senders[k % task.senders.length]!;
      const p = this.client
        .call(sender, "POST", "/messages", {
          type: "stream",
          to: task.streams[stream]!,
          topic: "live",
          content: `Live message ${k} bench-ts=${ts}`,
        })
        .then(
          (r) => {
            entry.answered = now();
            if (typeof r.body.id === "number") entry.messageId = r.body.id;
            if (r.status === 200 && r.body.result === "success") sends.latencies.push(r.ms);
            else noteError(sends, `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          },
          (err) => noteError(sends, String(err)),
        )
        .finally(() => pending.delete(p));
      pending.add(p);
    }
    await Promise.all(pending);
    sends.elapsedMs = performance.now() - start;
    const graceEnd = performance.now() + task.graceMs;
    while (deliveries.length < expected && performance.now() < graceEnd) await sleep(100);
    this.deliveries = undefined;
    const fanoutComplete: number[] = [];
    for (const [ts, e] of this.inFlight) if (e.expected > 0 && e.arrived >= e.expected) fanoutComplete.push(e.last - Number(ts));
    const perSend = [...this.inFlight].map(([ts, e]) => ({
      ts,
      messageId: e.messageId,
      answered: e.answered,
      first: e.first,
      last: e.last,
      arrived: e.arrived,
      expected: e.expected,
    }));
    return { sends, deliveries, fanoutComplete, expected, delivered: deliveries.length, perSend, lateSends };
  }

  /** Stops every loop (aborting the held requests) and closes the connections. */
  async stop(): Promise<PollStats> {
    this.stopped = true;
    this.abort.abort();
    await Promise.race([Promise.all(this.loops), sleep(5000)]);
    this.client.close();
    return { ...this.stats };
  }
}
