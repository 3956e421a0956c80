import { describe, expect, it } from "vitest";
import {
  applyDraftEvent,
  DRAFT_SAVE_DELAY_MS,
  draftFor,
  draftKey,
  draftsFromRegister,
  DraftSync,
  draftTarget,
  sortedDrafts,
  type Draft,
  type DraftState,
} from "./drafts.js";

const ME = 10;
function draft(id: number, over: Partial<Draft> = {}): Draft {
  return { id, type: "stream", to: [3], topic: "lunch", content: `d${id}`, timestamp: 1000 + id, ...over };
}

describe("drafts state", () => {
  it("adds, updates and removes drafts from events, newest first", () => {
    let state = draftsFromRegister([draft(1)]);
    state = applyDraftEvent(state, { id: 1, type: "drafts", op: "add", drafts: [draft(2)] });
    state = applyDraftEvent(state, { id: 2, type: "drafts", op: "update", draft: draft(1, { content: "x", timestamp: 5000 }) });
    expect(sortedDrafts(state).map((d) => [d.id, d.content])).toEqual([[1, "x"], [2, "d2"]]);
    state = applyDraftEvent(state, { id: 3, type: "drafts", op: "remove", draft_id: 1 });
    expect([...state.keys()]).toEqual([2]);
  });

  it("files a draft by conversation: topics without case, people in any order, notes to self by the reader's ID", () => {
    expect(draftKey(draft(1, { topic: "Lunch" }), ME)).toBe(draftKey({ type: "stream", stream_id: 3, topic: "lunch" }, ME));
    expect(draftKey(draft(1, { type: "private", to: [6, 5], topic: "" }), ME)).toBe(draftKey({ type: "private", user_ids: [5, 6] }, ME));
    expect(draftKey({ type: "private", user_ids: [ME] }, ME)).toBe("dm:10");
    expect(draftKey(draft(1, { type: "", to: [] }), ME)).toBe("");
    const state = draftsFromRegister([draft(1), draft(2, { timestamp: 9999 })]);
    expect(draftFor(state, { type: "stream", stream_id: 3, topic: "LUNCH" }, ME)?.id).toBe(2);
    expect(draftTarget(draft(1, { type: "private", to: [5], topic: "" }))).toEqual({ type: "private", user_ids: [5] });
    expect(draftTarget(draft(1, { type: "", to: [] }))).toBeNull();
  });
});

/** A DraftSync on a fake server and a manual timer. */
function harness(initial: Draft[] = [], enabled = true) {
  const calls: [string, string, unknown][] = [];
  let state: DraftState = draftsFromRegister(initial);
  let timer: (() => void) | null = null;
  let nextId = 100;
  const sync = new DraftSync({
    call: async (method, path, params) => {
      calls.push([method, path, params]);
      if (method === "POST") return { ids: [nextId++] };
      return {};
    },
    drafts: () => state,
    myUserId: () => ME,
    enabled: () => enabled,
    setTimer: (fn, ms) => {
      expect(ms).toBe(DRAFT_SAVE_DELAY_MS);
      timer = fn;
      return 1;
    },
    clearTimer: () => (timer = null),
    nowSeconds: () => 2000,
  });
  return { sync, calls, fire: () => timer?.(), setState: (s: DraftState) => (state = s) };
}

describe("DraftSync", () => {
  const lunch = { type: "stream" as const, stream_id: 3, topic: "lunch" };

  it("creates one draft after typing pauses, then edits it, and deletes it when the message is sent", async () => {
    // Prepare
    const { sync, calls, fire } = harness();
    // Act: two keystrokes, one save.
    sync.edited(lunch, "h");
    sync.edited(lunch, "hi");
    fire();
    await sync.flush();
    sync.edited({ ...lunch, topic: "dinner" }, "hi there");
    await sync.flush();
    await sync.sent();
    // Assess
    expect(calls).toEqual([
      ["POST", "/drafts", { drafts: [{ type: "stream", to: [3], topic: "lunch", content: "hi", timestamp: 2000 }] }],
      ["PATCH", "/drafts/100", { draft: { type: "stream", to: [3], topic: "dinner", content: "hi there", timestamp: 2000 } }],
      ["DELETE", "/drafts/100", undefined],
    ]);
  });

  it("takes over the conversation's draft when compose opens there, and an emptied box deletes it", async () => {
    const { sync, calls } = harness([draft(7)]);
    expect(sync.take(lunch)?.content).toBe("d7");
    sync.edited(lunch, "more");
    await sync.flush();
    sync.edited(lunch, "  ");
    await sync.flush();
    expect(calls.map(([m, p]) => `${m} ${p}`)).toEqual(["PATCH /drafts/7", "DELETE /drafts/7"]);
  });

  it("starts a new draft after the box was closed, and does not save a box without recipients", async () => {
    const { sync, calls } = harness();
    sync.edited(lunch, "one");
    await sync.close();
    sync.edited(null, "no one");
    await sync.flush();
    sync.edited({ type: "private", user_ids: [5] }, "two");
    await sync.flush();
    expect(calls.map(([m, p]) => `${m} ${p}`)).toEqual(["POST /drafts", "POST /drafts"]);
  });

  it("saves nothing while drafts synchronization is off", async () => {
    const { sync, calls } = harness([draft(7)], false);
    expect(sync.take(lunch)).toBeUndefined();
    sync.edited(lunch, "x");
    await sync.flush();
    expect(calls).toEqual([]);
  });
});
