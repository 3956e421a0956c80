import { describe, expect, it } from "vitest";
import { ApiError, type ApiClient } from "../api/client.js";
import { backoffDelay, BACKOFF_CAP_MS, EventQueueLoop } from "./queue.js";
import type { ServerEvent } from "./types.js";

type Answer = Record<string, unknown> | ApiError;

/**
 * A fake server: answers each call from a script in order, records calls.
 * A call past the script's end stops the loop (and is not recorded), so every test ends.
 */
function harness(script: Answer[]) {
  const calls: { method: string; path: string; params: Record<string, unknown> }[] = [];
  const sleeps: number[] = [];
  const registered: { state: Record<string, unknown>; again: boolean }[] = [];
  const batches: ServerEvent[][] = [];
  let signedOut = 0;
  let loop!: EventQueueLoop;
  const api: ApiClient = {
    async call<T>(method: string, path: string, params: Record<string, unknown> = {}) {
      const next = script.shift();
      if (next === undefined) {
        loop.stop();
        throw new ApiError(0, "NETWORK", "end of script");
      }
      calls.push({ method, path, params });
      if (next instanceof ApiError) throw next;
      return next as T;
    },
  };
  loop = new EventQueueLoop({
    api,
    registerParams: { apply_markdown: true },
    onRegister: (state, again) => registered.push({ state, again }),
    onEvents: (events) => batches.push(events),
    onSignedOut: () => {
      signedOut += 1;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });
  return { loop, calls, sleeps, registered, batches, signedOut: () => signedOut };
}

const reg = (queue_id: string, last_event_id = -1) => ({ result: "success", queue_id, last_event_id });
const events = (...ids: number[]) => ({ result: "success", events: ids.map((id) => ({ id, type: "heartbeat" })) });

describe("backoffDelay", () => {
  it("doubles from one second, capped at 30 s, jittered between half and all of it", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 15000, 15000]);
    expect(backoffDelay(10, () => 0.999999)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(2, () => 0.5)).toBe(3000);
  });
});

describe("EventQueueLoop", () => {
  it("registers, then polls with queue_id and the last event ID seen", async () => {
    const h = harness([reg("q1", 4), events(5, 6), events(7), events()]);
    await h.loop.start();
    expect(h.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /register", "GET /events", "GET /events", "GET /events"]);
    expect(h.calls[0]!.params).toEqual({ apply_markdown: true });
    expect(h.calls.slice(1).map((c) => c.params)).toEqual([
      { queue_id: "q1", last_event_id: 4 },
      { queue_id: "q1", last_event_id: 6 },
      { queue_id: "q1", last_event_id: 7 },
    ]);
    expect(h.batches.map((b) => b.map((e) => e.id))).toEqual([[5, 6], [7]]);
    expect(h.registered).toEqual([{ state: reg("q1", 4), again: false }]);
    expect(h.sleeps).toEqual([]);
  });

  it("registers again on BAD_EVENT_QUEUE_ID and says so, so the open view is fetched again", async () => {
    const h = harness([reg("q1"), new ApiError(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: q1"), reg("q2", 10), events(11)]);
    await h.loop.start();
    expect(h.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /register", "GET /events", "POST /register", "GET /events"]);
    expect(h.calls[3]!.params).toEqual({ queue_id: "q2", last_event_id: 10 });
    expect(h.registered.map((r) => r.again)).toEqual([false, true]);
    expect(h.sleeps).toEqual([]);
  });

  it("backs off exponentially on network errors and 5xx, and resets after a success", async () => {
    const h = harness([
      new ApiError(0, "NETWORK", "offline"),
      reg("q1"),
      new ApiError(502, "BAD_RESPONSE", "bad gateway"),
      new ApiError(0, "NETWORK", "offline"),
      new ApiError(503, "BAD_REQUEST", "unavailable"),
      events(1),
      new ApiError(0, "NETWORK", "offline"),
      events(2),
    ]);
    await h.loop.start();
    expect(h.sleeps).toEqual([750, 750, 1500, 3000, 750]);
    expect(h.batches.map((b) => b.map((e) => e.id))).toEqual([[1], [2]]);
    expect(h.registered).toHaveLength(1);
  });

  it("stops on 401 and reports the sign-out", async () => {
    const h = harness([reg("q1"), new ApiError(401, "UNAUTHORIZED", "Not logged in"), events(1)]);
    await h.loop.start();
    expect(h.signedOut()).toBe(1);
    expect(h.calls).toHaveLength(2);
    expect(h.batches).toEqual([]);
  });

  it("stops on 401 at registration", async () => {
    const h = harness([new ApiError(401, "UNAUTHORIZED", "Not logged in"), reg("q1")]);
    await h.loop.start();
    expect(h.signedOut()).toBe(1);
    expect(h.registered).toEqual([]);
  });

  it("registers a new queue after another refused poll, waiting first", async () => {
    const h = harness([reg("q1"), new ApiError(400, "BAD_REQUEST", "Invalid queue"), reg("q2"), events(1)]);
    await h.loop.start();
    expect(h.sleeps).toEqual([750]);
    expect(h.calls.map((c) => c.path)).toEqual(["/register", "/events", "/register", "/events"]);
    expect(h.loop.currentQueueId).toBe("q2");
  });
});
