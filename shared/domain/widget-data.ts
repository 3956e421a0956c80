import { JsonableError } from "../errors.js";

/**
 * Checks of the submessages the apps send to a poll or to-do widget
 * (https://zulip.com/api/send-submessage; Zulip's `validate_poll_data` and
 * `validate_todo_data` in `zerver/lib/validator.py`, with the wording of its
 * `check_dict` / `check_dict_only` validators). The forms:
 *
 * | widget | `type` | other keys |
 * |---|---|---|
 * | poll | `vote` | `key` (string, e.g. `"canned,0"` or `"<user_id>,<idx>"`), `vote` (1 or -1) |
 * | poll | `question` | `question` (string; the widget's author only) |
 * | poll | `new_option` | `option` (string), `idx` (0–{@link MAX_IDX}) |
 * | todo | `new_task` | `key` (0–{@link MAX_IDX}), `task`, `desc` (strings), `completed` (boolean) |
 * | todo | `strike` | `key` (string, e.g. `"0,canned"` or `"<idx>,<user_id>"`) |
 * | todo | `new_task_list_title` | `title` (string; the widget's author only) |
 *
 * Each form allows exactly its keys.
 */

/** Highest `idx` / `key` index a widget's new option or task may have (Zulip's `MAX_IDX`, matching its apps). */
export const MAX_IDX = 1000;

type Check = (name: string, value: unknown) => void;

function fail(msg: string): never {
  throw new JsonableError(msg);
}

/** Python's `isinstance(x, int)`, which booleans pass too (JSON numbers with a fraction do not). */
function isPythonInt(v: unknown): v is number | boolean {
  return typeof v === "boolean" || (typeof v === "number" && Number.isInteger(v));
}

const checkString: Check = (name, v) => {
  if (typeof v !== "string") fail(`${name} is not a string`);
};
const checkBool: Check = (name, v) => {
  if (typeof v !== "boolean") fail(`${name} is not a boolean`);
};
function checkIntIn(allowed: number[]): Check {
  return (name, v) => {
    if (!isPythonInt(v)) fail(`${name} is not an integer`);
    if (!allowed.includes(Number(v))) fail(`Invalid ${name}`);
  };
}
function checkIntRange(low: number, high: number): Check {
  return (name, v) => {
    if (!isPythonInt(v)) fail(`${name} is not an integer`);
    if (Number(v) < low) fail(`${name} is too small`);
    if (Number(v) > high) fail(`${name} is too large`);
  };
}

/**
 * Zulip's `check_dict_only`: each required key present and valid, in the
 * order listed, then no other key.
 */
function checkDictOnly(name: string, data: Record<string, unknown>, required: [string, Check][]): void {
  for (const [key, check] of required) {
    if (!(key in data)) fail(`${key} key is missing from ${name}`);
    check(`${name}["${key}"]`, data[key]);
  }
  const listed = new Set(required.map(([key]) => key));
  const extra = Object.keys(data).filter((key) => !listed.has(key));
  if (extra.length > 0) fail(`Unexpected arguments: ${extra.join(", ")}`);
}

/** Zulip's `check_dict([("type", check_string)])`: a dict with a string `type`. */
function typed(name: string, data: unknown): Record<string, unknown> & { type: string } {
  if (data === null || typeof data !== "object" || Array.isArray(data)) fail(`${name} is not a dict`);
  const dict = data as Record<string, unknown>;
  if (!("type" in dict)) fail(`type key is missing from ${name}`);
  checkString(`${name}["type"]`, dict.type);
  return dict as Record<string, unknown> & { type: string };
}

/**
 * Checks a poll submessage (Zulip's `validate_poll_data`).
 * @param data the parsed `content`
 * @param isWidgetAuthor whether the poster sent the poll's message (only they may edit the question)
 * @throws JsonableError with Zulip's validator wording, e.g. `poll data is not a dict`,
 *   `Invalid poll data["vote"]`, `Unexpected arguments: x`, `Unknown type for poll data: x`,
 *   `You can't edit a question unless you are the author.`
 */
export function validatePollData(data: unknown, isWidgetAuthor: boolean): void {
  const name = "poll data";
  const poll = typed(name, data);
  switch (poll.type) {
    case "vote":
      return checkDictOnly(name, poll, [["type", checkString], ["key", checkString], ["vote", checkIntIn([1, -1])]]);
    case "question":
      if (!isWidgetAuthor) fail("You can't edit a question unless you are the author.");
      return checkDictOnly(name, poll, [["type", checkString], ["question", checkString]]);
    case "new_option":
      return checkDictOnly(name, poll, [["type", checkString], ["option", checkString], ["idx", checkIntRange(0, MAX_IDX)]]);
    default:
      fail(`Unknown type for poll data: ${poll.type}`);
  }
}

/**
 * Checks a to-do list submessage (Zulip's `validate_todo_data`).
 * @param data the parsed `content`
 * @param isWidgetAuthor whether the poster sent the list's message (only they may retitle it)
 * @throws JsonableError with Zulip's validator wording, e.g. `todo data is not a dict`,
 *   `todo data["completed"] is not a boolean`, `Unknown type for todo data: x`,
 *   `You can't edit the task list title unless you are the author.`
 */
export function validateTodoData(data: unknown, isWidgetAuthor: boolean): void {
  const name = "todo data";
  const todo = typed(name, data);
  switch (todo.type) {
    case "new_task":
      return checkDictOnly(name, todo, [
        ["type", checkString],
        ["key", checkIntRange(0, MAX_IDX)],
        ["task", checkString],
        ["desc", checkString],
        ["completed", checkBool],
      ]);
    case "strike":
      return checkDictOnly(name, todo, [["type", checkString], ["key", checkString]]);
    case "new_task_list_title":
      if (!isWidgetAuthor) fail("You can't edit the task list title unless you are the author.");
      return checkDictOnly(name, todo, [["type", checkString], ["title", checkString]]);
    default:
      fail(`Unknown type for todo data: ${todo.type}`);
  }
}
