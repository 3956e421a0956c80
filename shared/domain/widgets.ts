/**
 * Widgets made from message content: a message whose content starts with
 * `/poll` or `/todo` gets a first submessage (`msg_type` `widget`) that the
 * apps render as a poll or a collaborative to-do list
 * (https://zulip.com/help/create-a-poll,
 * https://zulip.com/help/collaborative-to-do-lists; Zulip's `get_widget_data`
 * and `do_widget_post_save_actions` in `zerver/lib/widget.py`).
 *
 * Pure: the send path (`shared/actions/messages/do-send-message.ts`) calls
 * {@link widgetContentFor} on the normalized content; the Markdown renderer
 * knows nothing of widgets (the content renders as any other message).
 */

/** The poll a `/poll` message starts with. */
export interface PollExtraData {
  /** The first line after `/poll`, trimmed; `""` when none. */
  question: string;
  /** Every following non-blank line, trimmed, without a leading list marker (`-`/`*`). */
  options: string[];
}

/** One task of a `/todo` message: `task: description` (description optional). */
export interface TodoTask {
  task: string;
  desc: string;
}

/** The to-do list a `/todo` message starts with. */
export interface TodoExtraData {
  /** The first line after `/todo`, trimmed; `""` when none. */
  task_list_title: string;
  tasks: TodoTask[];
}

/** The content of a message's widget submessage (Zulip's `widget_content`). */
export type WidgetContent =
  | { widget_type: "poll"; extra_data: PollExtraData }
  | { widget_type: "todo"; extra_data: TodoExtraData };

/** The widget types made from content (`/poll`, `/todo`). */
export type WidgetType = WidgetContent["widget_type"];

/**
 * Python's whitespace (`str.isspace`, which `str.strip`, `str.splitlines`'s
 * neighbours and the `\s` of `re` patterns use): JavaScript's `\s` and
 * `trim` differ on U+001C–U+001F, U+0085 (Python only) and U+FEFF
 * (JavaScript only), and the parse must split where Zulip's does.
 */
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`);
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
/** Python's `str.splitlines` boundaries. */
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
/** A leading list marker with the spaces around it (Zulip strips one before each option or task). */
const LIST_MARKER = new RegExp(`^[${PY_SPACE}]*[-*]?[${PY_SPACE}]*`);

function pyStrip(s: string): string {
  return s.replace(PY_STRIP, "");
}

/** Python's `str.splitlines()`: no empty last line after a final break. */
function splitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split(PY_LINE_BREAK);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The first line (if not empty) is the title; the other non-blank lines are the items, without a list marker. */
function titleAndItems(rest: string): { title: string; items: string[] } {
  const lines = splitLines(rest);
  let title = "";
  if (lines.length > 0 && lines[0] !== "") title = pyStrip(lines.shift()!);
  const items = lines.map((line) => pyStrip(line).replace(LIST_MARKER, "")).filter((item) => item.length > 0);
  return { title, items };
}

/**
 * The widget a message's content asks for (Zulip's `get_widget_data`): the
 * content's first word is exactly `/poll` or `/todo`.
 *
 * - `/poll Question?` then one option a line: `{question, options}`;
 * - `/todo Title` then one task a line, `task: description` split at the
 *   first `": "`: `{task_list_title, tasks: [{task, desc}]}`.
 *
 * Blank lines are skipped; a line's leading `-` or `*` list marker is
 * dropped. A first line left empty (`/poll` then a line break) means no
 * question or title; the lines after it are all options or tasks.
 * @param content normalized message content (Markdown source)
 * @returns the widget submessage's content, or undefined for any other message
 */
export function widgetContentFor(content: string): WidgetContent | undefined {
  const first = content.split(PY_SPACE_RUN)[0]!;
  if (first !== "/poll" && first !== "/todo") return undefined;
  const { title, items } = titleAndItems(content.slice(first.length));
  if (first === "/poll") return { widget_type: "poll", extra_data: { question: title, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(": ");
    return at < 0 ? { task: pyStrip(item), desc: "" } : { task: pyStrip(item.slice(0, at)), desc: pyStrip(item.slice(at + 2)) };
  });
  return { widget_type: "todo", extra_data: { task_list_title: title, tasks } };
}

/** A JSON string literal as Python's `json.dumps` writes it: every character outside printable ASCII as `\uXXXX` (lower-case hex, UTF-16 units). */
function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * JSON text as Python's `json.dumps` writes it with its defaults
 * (`", "` and `": "` separators, `ensure_ascii`), which is the exact text
 * Zulip stores as a widget submessage's `content`; clients only parse it,
 * but a byte-identical string keeps comparisons with Zulip's output simple.
 * @param value plain JSON data (objects keep their key order)
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return pyJsonString(value);
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pyJsonString(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
}

/**
 * The widget type of a message from its submessages (Zulip's
 * `get_widget_type`): the `widget_type` of its first `widget` submessage,
 * undefined when there is none or its content is not such JSON.
 * @param submessages the message's submessages, in ID order
 */
export function widgetTypeOf(submessages: readonly { msg_type: string; content: string }[]): string | undefined {
  const widget = submessages.find((s) => s.msg_type === "widget");
  if (!widget) return undefined;
  try {
    const data: unknown = JSON.parse(widget.content);
    const type = data !== null && typeof data === "object" ? (data as Record<string, unknown>).widget_type : undefined;
    return typeof type === "string" ? type : undefined;
  } catch {
    return undefined;
  }
}
