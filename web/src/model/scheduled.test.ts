import { describe, expect, it } from "vitest";
import {
  applyScheduledEvent,
  localInputToTimestamp,
  scheduledFromRegister,
  scheduledTarget,
  scheduleParams,
  schedulePresets,
  sortedScheduled,
  timestampToLocalInput,
  type ScheduledMessage,
} from "./scheduled.js";

function sm(id: number, ts: number, over: Partial<ScheduledMessage> = {}): ScheduledMessage {
  return { scheduled_message_id: id, type: "stream", to: 3, topic: "lunch", content: `m${id}`, rendered_content: `<p>m${id}</p>`, scheduled_delivery_timestamp: ts, failed: false, ...over };
}

describe("applyScheduledEvent", () => {
  it("adds, updates and removes scheduled messages, keeping delivery order", () => {
    // Prepare
    let state = scheduledFromRegister([sm(1, 300)]);
    // Act
    state = applyScheduledEvent(state, { id: 1, type: "scheduled_messages", op: "add", scheduled_messages: [sm(2, 100)] });
    state = applyScheduledEvent(state, { id: 2, type: "scheduled_messages", op: "update", scheduled_message: sm(1, 50, { content: "edited" }) });
    // Assess
    expect(sortedScheduled(state).map((m) => [m.scheduled_message_id, m.content])).toEqual([[1, "edited"], [2, "m2"]]);
    state = applyScheduledEvent(state, { id: 3, type: "scheduled_messages", op: "remove", scheduled_message_id: 1 });
    expect([...state.keys()]).toEqual([2]);
  });

  it("returns the same state for removing one it does not hold, and reads an absent register field as empty", () => {
    const state = scheduledFromRegister(undefined);
    expect(state.size).toBe(0);
    expect(applyScheduledEvent(state, { id: 1, type: "scheduled_messages", op: "remove", scheduled_message_id: 9 })).toBe(state);
  });
});

describe("schedulePresets", () => {
  const hour = (d: Date) => `${d.getHours()}:00`;
  const ts = (y: number, mo: number, d: number, h: number) => Math.floor(new Date(y, mo - 1, d, h).getTime() / 1000);

  it("offers today at 9 and 4 before 9 am", () => {
    // Wednesday 2026-11-25, 8:00
    expect(schedulePresets(new Date(2026, 10, 25, 8), hour)).toEqual([
      { label: "Today at 9:00", timestamp: ts(2026, 11, 25, 9) },
      { label: "Today at 16:00", timestamp: ts(2026, 11, 25, 16) },
    ]);
  });

  it("offers today at 4 and tomorrow at 9 during the day", () => {
    expect(schedulePresets(new Date(2026, 10, 25, 12), hour).map((p) => p.label)).toEqual(["Today at 16:00", "Tomorrow at 9:00"]);
  });

  it("offers tomorrow at 9 and 4 in the evening, and Monday at 9 from Friday to Sunday", () => {
    // Friday 2026-11-27, 20:00
    expect(schedulePresets(new Date(2026, 10, 27, 20), hour)).toEqual([
      { label: "Tomorrow at 9:00", timestamp: ts(2026, 11, 28, 9) },
      { label: "Tomorrow at 16:00", timestamp: ts(2026, 11, 28, 16) },
      { label: "Monday at 9:00", timestamp: ts(2026, 11, 30, 9) },
    ]);
    // Sunday: Monday is tomorrow.
    expect(schedulePresets(new Date(2026, 10, 29, 10), hour).at(-1)).toEqual({ label: "Monday at 9:00", timestamp: ts(2026, 11, 30, 9) });
  });
});

describe("times and parameters", () => {
  it("converts datetime-local values both ways in local time, and refuses other text", () => {
    const seconds = Math.floor(new Date(2026, 0, 2, 3, 4).getTime() / 1000);
    expect(timestampToLocalInput(seconds)).toBe("2026-01-02T03:04");
    expect(localInputToTimestamp("2026-01-02T03:04")).toBe(seconds);
    expect(localInputToTimestamp("tomorrow")).toBeUndefined();
  });

  it("builds the stream and direct forms of POST /scheduled_messages, and reads a message's target back", () => {
    expect(scheduleParams({ type: "stream", stream_id: 3, topic: "lunch" }, "hi", 100)).toEqual({
      type: "stream",
      to: 3,
      topic: "lunch",
      content: "hi",
      scheduled_delivery_timestamp: 100,
    });
    expect(scheduleParams({ type: "private", user_ids: [5, 6] }, "hi")).toEqual({ type: "direct", to: [5, 6], content: "hi" });
    expect(scheduledTarget(sm(1, 1))).toEqual({ type: "stream", stream_id: 3, topic: "lunch" });
    expect(scheduledTarget(sm(1, 1, { type: "private", to: [5], topic: undefined }))).toEqual({ type: "private", user_ids: [5] });
  });
});
