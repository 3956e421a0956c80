import { describe, expect, it, vi } from "vitest";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { mayLoseNotification } from "./edit/push-removal-on-edit.js";
import { ACTIVE_PUSH_FLAG } from "../../data/user-messages.js";
import {
  activePushIdsByUser,
  clearingActivePush,
  enqueueWithRemovals,
  pushRemovalJob,
  pushRemovalJobs,
  readAndCleared,
} from "./push-removals.js";

const row = (user_id: number, message_id: number, flags: string[]): UserMessageRecord => ({
  user_id,
  message_id,
  is_private: false,
  flags,
});

describe("readAndCleared", () => {
  it("adds read and drops the notification flag, keeping the other flags in order", () => {
    expect(readAndCleared(["starred", ACTIVE_PUSH_FLAG, "mentioned"])).toEqual(["starred", "mentioned", "read"]);
    expect(readAndCleared(["read", "starred"])).toEqual(["read", "starred"]);
    expect(readAndCleared(["read", ACTIVE_PUSH_FLAG])).toEqual(["read"]);
    expect(readAndCleared([])).toEqual(["read"]);
  });
});

describe("clearingActivePush", () => {
  it("reports, by user, the changed rows that had the flag when their written change was computed", () => {
    // Prepare
    const c = clearingActivePush((_row, flags) => readAndCleared(flags));
    const a = row(1, 10, [ACTIVE_PUSH_FLAG]);
    const b = row(1, 11, []);
    const d = row(2, 12, ["mentioned", ACTIVE_PUSH_FLAG]);
    // Act
    const changed = [a, b, d].map((r) => ({ ...r, flags: c.change(r, [...r.flags]) }));
    // Assess
    expect(changed.map((r) => r.flags)).toEqual([["read"], ["read"], ["mentioned", "read"]]);
    expect(c.removed(changed)).toEqual(
      new Map([
        [1, [10]],
        [2, [12]],
      ]),
    );
  });

  it("remembers the last computation of a row re-read after a conflict, and leaves out rows not written", () => {
    const c = clearingActivePush((_row, flags) => readAndCleared(flags));
    const a = row(1, 10, [ACTIVE_PUSH_FLAG]);
    const b = row(1, 11, [ACTIVE_PUSH_FLAG]);
    c.change(a, [...a.flags]);
    c.change(b, [...b.flags]);
    // Another writer cleared a's flag meanwhile: the retry sees it gone.
    c.change(a, ["starred"]);
    // b's write never happened (the row was deleted): it is not among the changed rows.
    expect(c.removed([{ ...a, flags: ["starred", "read"] }])).toEqual(new Map());
  });

  it("clears only the rows `clears` names; the others keep the flag and are never reported", () => {
    const c = clearingActivePush(
      (_row, flags) => flags.filter((f) => f !== "mentioned"),
      (r) => r.user_id === 2,
    );
    const kept = row(1, 10, ["mentioned", ACTIVE_PUSH_FLAG]);
    const gone = row(2, 10, ["mentioned", ACTIVE_PUSH_FLAG]);
    const changed = [kept, gone].map((r) => ({ ...r, flags: c.change(r, [...r.flags]) }));
    expect(changed.map((r) => r.flags)).toEqual([[ACTIVE_PUSH_FLAG], []]);
    expect(c.removed(changed)).toEqual(new Map([[2, [10]]]));
  });
});

describe("activePushIdsByUser", () => {
  it("groups the flagged rows' IDs by user, ascending", () => {
    const rows = [row(3, 9, [ACTIVE_PUSH_FLAG]), row(3, 4, [ACTIVE_PUSH_FLAG, "read"]), row(4, 9, ["read"]), row(5, 1, [])];
    expect(activePushIdsByUser(rows)).toEqual(new Map([[3, [4, 9]]]));
  });
});

describe("pushRemovalJob(s)", () => {
  it("is none without IDs, else the newest 200 IDs ascending, without duplicates", () => {
    expect(pushRemovalJob(1, 2, [])).toBeUndefined();
    const ids = Array.from({ length: 250 }, (_, i) => 1000 - i);
    const job = pushRemovalJob(1, 2, [...ids, 1000])!;
    expect(job.kind).toBe("push_removal");
    expect(job.payload.realm_id).toBe(1);
    expect(job.payload.user_id).toBe(2);
    expect(job.payload.message_ids).toHaveLength(200);
    expect(job.payload.message_ids[0]).toBe(801);
    expect(job.payload.message_ids[199]).toBe(1000);
  });

  it("makes one job per user with IDs", () => {
    const jobs = pushRemovalJobs(
      7,
      new Map([
        [1, [5, 3]],
        [2, []],
      ]),
    );
    expect(jobs).toEqual([{ kind: "push_removal", payload: { realm_id: 7, user_id: 1, message_ids: [3, 5] } }]);
  });
});

describe("enqueueWithRemovals", () => {
  it("sends the action's jobs and the removals in one call, and makes no call for none", async () => {
    const enqueue = vi.fn(async () => {});
    const removal = pushRemovalJob(1, 2, [3])!;
    const other = { kind: "index_message", payload: { realm_id: 1, message_id: 3 } } as const;
    await enqueueWithRemovals({ deferred: { enqueue } }, [], []);
    expect(enqueue).not.toHaveBeenCalled();
    await enqueueWithRemovals({ deferred: { enqueue } }, [other], [removal]);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(enqueue).toHaveBeenCalledWith([other, removal]);
  });
});

describe("mayLoseNotification", () => {
  it("holds for a row on the phone that loses a mention, wildcard or alert word", () => {
    expect(mayLoseNotification(["mentioned", ACTIVE_PUSH_FLAG], [ACTIVE_PUSH_FLAG])).toBe(true);
    expect(mayLoseNotification(["stream_wildcard_mentioned", ACTIVE_PUSH_FLAG], ["mentioned", ACTIVE_PUSH_FLAG])).toBe(true);
    expect(mayLoseNotification(["has_alert_word", ACTIVE_PUSH_FLAG], [ACTIVE_PUSH_FLAG])).toBe(true);
  });

  it("does not hold without the flag, or when nothing that notifies is lost", () => {
    expect(mayLoseNotification(["mentioned"], [])).toBe(false);
    expect(mayLoseNotification(["mentioned", ACTIVE_PUSH_FLAG], ["mentioned", ACTIVE_PUSH_FLAG])).toBe(false);
    expect(mayLoseNotification([ACTIVE_PUSH_FLAG], ["mentioned", ACTIVE_PUSH_FLAG])).toBe(false);
  });
});
