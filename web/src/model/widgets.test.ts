import { describe, expect, it } from "vitest";
import { emptyList } from "./messages.js";
import { streamMessage } from "./test-fixtures.js";
import {
  applySubmessageEvent,
  newOptionContent,
  newTaskContent,
  strikeContent,
  submessageParams,
  voteContent,
  widgetState,
  type PollState,
  type Submessage,
  type TodoState,
} from "./widgets.js";

const AUTHOR = 11;
const ME = 10;
let nextId = 1;
function sub(sender: number, content: unknown): Submessage {
  return { id: nextId++, message_id: 1, sender_id: sender, msg_type: "widget", content: JSON.stringify(content) };
}

describe("polls", () => {
  const widget = () => sub(AUTHOR, { widget_type: "poll", extra_data: { question: "Lunch?", options: ["Pizza", "Soup"] } });

  it("counts votes per option, a vote taken back, options added by anyone, and the author's question edits only", () => {
    // Prepare
    const subs = [
      widget(),
      sub(ME, { type: "vote", key: "canned,0", vote: 1 }),
      sub(12, { type: "vote", key: "canned,0", vote: 1 }),
      sub(12, { type: "vote", key: "canned,0", vote: -1 }),
      sub(12, { type: "new_option", idx: 1, option: "Tacos" }),
      sub(AUTHOR, { type: "vote", key: "12,1", vote: 1 }),
      sub(12, { type: "question", question: "Hijacked?" }),
      sub(AUTHOR, { type: "question", question: "Lunch today?" }),
      sub(ME, { type: "vote", key: "nope,9", vote: 1 }),
    ];
    // Act
    const poll = widgetState(subs, AUTHOR, ME) as PollState;
    // Assess
    expect(poll.question).toBe("Lunch today?");
    expect(poll.options).toEqual([
      { key: "canned,0", option: "Pizza", voters: [ME] },
      { key: "canned,1", option: "Soup", voters: [] },
      { key: "12,1", option: "Tacos", voters: [AUTHOR] },
    ]);
    expect(voteContent(poll.options[0]!, ME)).toEqual({ type: "vote", key: "canned,0", vote: -1 });
    expect(voteContent(poll.options[1]!, ME)).toEqual({ type: "vote", key: "canned,1", vote: 1 });
  });

  it("folds in ID order whatever the order given, and numbers the reader's new options after their own", () => {
    const subs = [widget(), sub(ME, { type: "new_option", idx: 1, option: "A" }), sub(ME, { type: "new_option", idx: 2, option: "B" })];
    const poll = widgetState([...subs].reverse(), AUTHOR, ME) as PollState;
    expect(poll.options.map((o) => o.option)).toEqual(["Pizza", "Soup", "A", "B"]);
    expect(newOptionContent(poll, "C")).toEqual({ type: "new_option", idx: 3, option: "C" });
  });
});

describe("to-do lists", () => {
  it("lists tasks, toggles them with strikes, ignores a repeated task name, and lets only the author retitle", () => {
    const subs = [
      sub(AUTHOR, { widget_type: "todo", extra_data: { task_list_title: "Trip", tasks: [{ task: "Tickets", desc: "train" }] } }),
      sub(ME, { type: "new_task", key: 1, task: "Hotel", desc: "", completed: false }),
      sub(12, { type: "new_task", key: 1, task: "Hotel", desc: "", completed: false }),
      sub(12, { type: "strike", key: "0,canned" }),
      sub(ME, { type: "strike", key: "1,10" }),
      sub(ME, { type: "strike", key: "1,10" }),
      sub(12, { type: "new_task_list_title", title: "Nope" }),
    ];
    const todo = widgetState(subs, AUTHOR, ME) as TodoState;
    expect(todo.title).toBe("Trip");
    expect(todo.tasks).toEqual([
      { key: "0,canned", task: "Tickets", desc: "train", completed: true },
      { key: "1,10", task: "Hotel", desc: "", completed: false },
    ]);
    expect(newTaskContent(todo, "Bags", "")).toEqual({ type: "new_task", key: 2, task: "Bags", desc: "", completed: false });
    expect(strikeContent(todo.tasks[1]!)).toEqual({ type: "strike", key: "1,10" });
  });

  it("is no widget without a widget submessage, or with unknown or broken data", () => {
    expect(widgetState([], AUTHOR, ME)).toBeNull();
    expect(widgetState([sub(AUTHOR, { widget_type: "zform", extra_data: {} })], AUTHOR, ME)).toBeNull();
    expect(widgetState([{ ...sub(AUTHOR, {}), content: "{" }], AUTHOR, ME)).toBeNull();
  });
});

describe("submessages on the wire", () => {
  it("adds a submessage event to its loaded message once", () => {
    // Prepare
    const list = { ...emptyList({ kind: "feed" }), messages: [streamMessage(1), streamMessage(2)] };
    const event = { id: 5, type: "submessage" as const, msg_type: "widget", content: "{}", message_id: 1, sender_id: 12, submessage_id: 40 };
    // Act
    const next = applySubmessageEvent(list, event);
    // Assess
    expect(next.messages[0]!.submessages).toEqual([{ msg_type: "widget", content: "{}", message_id: 1, sender_id: 12, id: 40 }]);
    expect(next.messages[1]).toBe(list.messages[1]);
    expect(applySubmessageEvent(next, event)).toBe(next);
    expect(applySubmessageEvent(list, { ...event, message_id: 99 })).toBe(list);
  });

  it("posts widget content as JSON text", () => {
    expect(submessageParams(7, { type: "vote", key: "canned,0", vote: 1 })).toEqual({
      message_id: 7,
      msg_type: "widget",
      content: '{"type":"vote","key":"canned,0","vote":1}',
    });
  });
});
