import { describe, expect, it } from "vitest";
import { ApiError, type ApiClient } from "../api/client.js";
import { READ_BATCH_MS, ReadTracker, visibleUnread } from "./read.js";

function harness(fail = false) {
  const calls: { path: string; params: Record<string, unknown> }[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const marked: number[][] = [];
  const errors: unknown[] = [];
  const api: ApiClient = {
    async call<T>(_method: string, path: string, params: Record<string, unknown> = {}) {
      calls.push({ path, params });
      if (fail) throw new ApiError(0, "NETWORK", "offline");
      return { result: "success" } as T;
    },
  };
  const tracker = new ReadTracker({
    api,
    schedule: (fn, ms) => timers.push({ fn, ms }),
    onMarked: (ids) => marked.push(ids),
    onError: (e) => errors.push(e),
  });
  const fire = async () => {
    const due = timers.splice(0);
    for (const t of due) t.fn();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { tracker, calls, timers, marked, errors, fire };
}

describe("ReadTracker", () => {
  it("marks a message read again once it became unread (mark as unread) and is seen again", async () => {
    const h = harness();
    h.tracker.seen([10]);
    await h.fire();
    h.tracker.seen([10]);
    await h.fire();
    expect(h.calls).toHaveLength(1);
    h.tracker.unread([10]);
    h.tracker.seen([10]);
    await h.fire();
    expect(h.calls.map((c) => c.params.messages)).toEqual([[10], [10]]);
  });

  it("batches the IDs seen within the interval into one request, applied locally at once", async () => {
    const h = harness();
    h.tracker.seen([30, 10]);
    h.tracker.seen([20, 10]);
    expect(h.timers.map((t) => t.ms)).toEqual([READ_BATCH_MS]);
    expect(h.calls).toEqual([]);
    await h.fire();
    expect(h.calls).toEqual([{ path: "/messages/flags", params: { messages: [10, 20, 30], op: "add", flag: "read" } }]);
    expect(h.marked).toEqual([[10, 20, 30]]);
  });

  it("does not send an ID twice, nor local echoes' provisional IDs", async () => {
    const h = harness();
    h.tracker.seen([10]);
    await h.fire();
    h.tracker.seen([10, 40.01]);
    expect(h.timers).toEqual([]);
    await h.fire();
    expect(h.calls).toHaveLength(1);
  });

  it("sends IDs again when seen after a failed request", async () => {
    const h = harness(true);
    h.tracker.seen([10]);
    await h.fire();
    expect(h.errors).toHaveLength(1);
    h.tracker.seen([10]);
    await h.fire();
    expect(h.calls.map((c) => c.params.messages)).toEqual([[10], [10]]);
  });
});

describe("visibleUnread", () => {
  it("keeps unread rows at least partly inside the viewport", () => {
    const rows = [
      { id: 1, top: 0, bottom: 100, read: false },
      { id: 2, top: 100, bottom: 200, read: false },
      { id: 3, top: 200, bottom: 300, read: true },
      { id: 4, top: 300, bottom: 400, read: false },
      { id: 5, top: 400, bottom: 500, read: false },
    ];
    expect(visibleUnread(rows, 150, 400)).toEqual([2, 4]);
  });
});
