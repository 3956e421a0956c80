import { describe, expect, it } from "vitest";
import { JsonableError } from "../errors.js";
import { validatePollData, validateTodoData } from "./widget-data.js";
import { pythonJsonDumps, widgetContentFor, widgetTypeOf } from "./widgets.js";

describe("widgetContentFor", () => {
  it("leaves ordinary messages alone", () => {
    for (const content of ["", "     ", "this is an ordinary message", "/bogus_command", "/me shrugs", "use /poll", "/polls", " /poll x"]) {
      expect(widgetContentFor(content), content).toBeUndefined();
    }
  });

  it("reads a poll's question and options, skipping blank lines, spaces and list markers", () => {
    expect(widgetContentFor("/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow\n* Pink")).toEqual({
      widget_type: "poll",
      extra_data: { question: "What is your favorite color?", options: ["Red", "Green", "Blue", "Yellow", "Pink"] },
    });
    expect(widgetContentFor("/poll")).toEqual({ widget_type: "poll", extra_data: { question: "", options: [] } });
    // An empty first line: no question, every following line an option.
    expect(widgetContentFor("/poll\nA\nB")).toEqual({ widget_type: "poll", extra_data: { question: "", options: ["A", "B"] } });
  });

  it("reads a to-do list's title and tasks, a description after the first ': '", () => {
    const content = "/todo Example Task List Title\n\n    task without description\ntask: with description    \n\n - task as list : also with description\nurl: http://x: y";
    expect(widgetContentFor(content)).toEqual({
      widget_type: "todo",
      extra_data: {
        task_list_title: "Example Task List Title",
        tasks: [
          { task: "task without description", desc: "" },
          { task: "task", desc: "with description" },
          { task: "task as list", desc: "also with description" },
          { task: "url", desc: "http://x: y" },
        ],
      },
    });
    expect(widgetContentFor("/todo")).toEqual({ widget_type: "todo", extra_data: { task_list_title: "", tasks: [] } });
  });
});

describe("pythonJsonDumps", () => {
  it("writes Python's json.dumps text: spaced separators, non-ASCII escaped", () => {
    expect(pythonJsonDumps({ widget_type: "poll", extra_data: { question: "Café \"ok\"?", options: ["🎉", "a\nb"] } })).toBe(
      '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9 \\"ok\\"?", "options": ["\\ud83c\\udf89", "a\\nb"]}}',
    );
    expect(pythonJsonDumps({ a: [], b: {}, c: null, d: true, e: 5 })).toBe('{"a": [], "b": {}, "c": null, "d": true, "e": 5}');
  });
});

describe("widgetTypeOf", () => {
  it("is the first widget submessage's widget_type", () => {
    expect(widgetTypeOf([])).toBeUndefined();
    expect(widgetTypeOf([{ msg_type: "widget", content: "not json" }])).toBeUndefined();
    expect(widgetTypeOf([{ msg_type: "other", content: '{"widget_type":"todo"}' }, { msg_type: "widget", content: '{"widget_type": "poll"}' }])).toBe("poll");
  });
});

function errorOf(f: () => void): string | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as Error).message;
  }
}

describe("validatePollData", () => {
  it("accepts the app's forms", () => {
    expect(errorOf(() => validatePollData({ type: "vote", key: "canned,0", vote: 1 }, false))).toBeUndefined();
    expect(errorOf(() => validatePollData({ type: "vote", key: "12,3", vote: -1 }, false))).toBeUndefined();
    expect(errorOf(() => validatePollData({ type: "new_option", option: "Teal", idx: 1000 }, false))).toBeUndefined();
    expect(errorOf(() => validatePollData({ type: "question", question: "Why?" }, true))).toBeUndefined();
  });

  it("refuses anything else with Zulip's validator wording", () => {
    const cases: [unknown, string][] = [
      [5, "poll data is not a dict"],
      [[], "poll data is not a dict"],
      [{}, "type key is missing from poll data"],
      [{ type: 1 }, 'poll data["type"] is not a string'],
      [{ type: "vote", key: "k" }, "vote key is missing from poll data"],
      [{ type: "vote", key: "k", vote: 2 }, 'Invalid poll data["vote"]'],
      [{ type: "vote", key: "k", vote: "1" }, 'poll data["vote"] is not an integer'],
      [{ type: "vote", key: 3, vote: 1 }, 'poll data["key"] is not a string'],
      [{ type: "vote", key: "k", vote: 1, extra: 1 }, "Unexpected arguments: extra"],
      [{ type: "new_option", option: "x", idx: 1001 }, 'poll data["idx"] is too large'],
      [{ type: "new_option", option: "x", idx: -1 }, 'poll data["idx"] is too small'],
      [{ type: "question", question: "x" }, "You can't edit a question unless you are the author."],
      [{ type: "bogus" }, "Unknown type for poll data: bogus"],
    ];
    for (const [data, msg] of cases) expect(errorOf(() => validatePollData(data, false)), JSON.stringify(data)).toBe(msg);
  });
});

describe("validateTodoData", () => {
  it("accepts the app's forms", () => {
    expect(errorOf(() => validateTodoData({ type: "new_task", key: 2, task: "Buy", desc: "milk", completed: false }, false))).toBeUndefined();
    expect(errorOf(() => validateTodoData({ type: "strike", key: "0,canned" }, false))).toBeUndefined();
    expect(errorOf(() => validateTodoData({ type: "new_task_list_title", title: "Chores" }, true))).toBeUndefined();
  });

  it("refuses anything else with Zulip's validator wording", () => {
    const cases: [unknown, string][] = [
      [null, "todo data is not a dict"],
      [{ type: "new_task", key: 1, task: "t", desc: "d", completed: "no" }, 'todo data["completed"] is not a boolean'],
      [{ type: "new_task", key: 1, task: "t", completed: false }, "desc key is missing from todo data"],
      [{ type: "strike", key: 0 }, 'todo data["key"] is not a string'],
      [{ type: "new_task_list_title", title: "x" }, "You can't edit the task list title unless you are the author."],
      [{ type: "vote" }, "Unknown type for todo data: vote"],
    ];
    for (const [data, msg] of cases) expect(errorOf(() => validateTodoData(data, false)), JSON.stringify(data)).toBe(msg);
  });
});
