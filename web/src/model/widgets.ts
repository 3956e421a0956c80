/**
 * Polls and collaborative to-do lists (https://zulip.com/help/create-a-poll,
 * https://zulip.com/help/collaborative-to-do-lists): a message sent as
 * `/poll …` or `/todo …` carries a first submessage (`msg_type` `widget`,
 * content `{widget_type, extra_data}`), and every vote, option, task or
 * check is one more submessage (https://zulip.com/api/send-submessage), which
 * reaches everyone as a `submessage` event. The widget's state is the fold
 * of its submessages in ID order, as in Zulip's `poll_data` and `todo_data`.
 * Pure, no view code.
 */
import type { MessageList } from "./messages.js";
import type { DeliveredEvent, Message } from "./types.js";

/** A submessage of a message (`id`, `sender_id`, `msg_type`, `content` JSON text). */
export type Submessage = Message["submessages"][number];

/** One poll option: its key (`canned,0` from the message, `<user_id>,<idx>` added later), text and voters. */
export interface PollOption {
  key: string;
  option: string;
  voters: number[];
}

/** A poll as its submessages leave it. */
export interface PollState {
  kind: "poll";
  question: string;
  options: PollOption[];
  /** The next `idx` of an option the reader adds (1 + the highest they used, from 1). */
  nextIdx: number;
}

/** One task: its key (`0,canned` from the message, `<idx>,<user_id>` added later), name, description, whether done. */
export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

/** A to-do list as its submessages leave it. */
export interface TodoState {
  kind: "todo";
  title: string;
  tasks: TodoTask[];
  /** The next `key` of a task the reader adds. */
  nextIdx: number;
}

/** A message's widget, or null for a message without one (or one this app does not know). */
export type WidgetState = PollState | TodoState;

function parse(content: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(content);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Folds a message's submessages into its widget's state (Zulip's
 * `poll_data.handle_event` / `todo_data.handle_event`). Malformed data, votes
 * for unknown options, repeated keys and title edits by anyone but the
 * message's sender are ignored, as Zulip's clients ignore them.
 * @param submessages the message's submessages (any order: they are sorted by ID)
 * @param senderId the message's sender (only they may edit the question or title)
 * @param myUserId the reader (for the next option or task index)
 */
export function widgetState(submessages: readonly Submessage[], senderId: number, myUserId: number): WidgetState | null {
  const sorted = [...submessages].filter((s) => s.msg_type === "widget").sort((a, b) => a.id - b.id);
  const first = sorted[0] ? parse(sorted[0].content) : null;
  if (!first) return null;
  const extra = (first.extra_data ?? {}) as Record<string, unknown>;
  if (first.widget_type === "poll") {
    const canned = Array.isArray(extra.options) ? extra.options : [];
    const poll: PollState = {
      kind: "poll",
      question: str(extra.question),
      options: canned.map((o, i) => ({ key: `canned,${i}`, option: str(o), voters: [] })),
      nextIdx: 1,
    };
    for (const s of sorted.slice(1)) foldPoll(poll, s, senderId, myUserId);
    return poll;
  }
  if (first.widget_type === "todo") {
    const canned = Array.isArray(extra.tasks) ? (extra.tasks as Record<string, unknown>[]) : [];
    const todo: TodoState = {
      kind: "todo",
      title: str(extra.task_list_title),
      tasks: canned.map((t, i) => ({ key: `${i},canned`, task: str(t?.task), desc: str(t?.desc), completed: false })),
      nextIdx: 1,
    };
    for (const s of sorted.slice(1)) foldTodo(todo, s, senderId, myUserId);
    return todo;
  }
  return null;
}

function foldPoll(poll: PollState, s: Submessage, senderId: number, me: number): void {
  const d = parse(s.content);
  if (!d) return;
  if (d.type === "question" && s.sender_id === senderId && typeof d.question === "string") poll.question = d.question;
  else if (d.type === "new_option" && typeof d.idx === "number" && typeof d.option === "string") {
    const key = `${s.sender_id},${d.idx}`;
    if (s.sender_id === me) poll.nextIdx = Math.max(poll.nextIdx, d.idx + 1);
    if (!poll.options.some((o) => o.key === key)) poll.options.push({ key, option: d.option, voters: [] });
  } else if (d.type === "vote" && typeof d.key === "string" && (d.vote === 1 || d.vote === -1)) {
    const option = poll.options.find((o) => o.key === d.key);
    if (!option) return;
    const others = option.voters.filter((id) => id !== s.sender_id);
    option.voters = d.vote === 1 ? [...others, s.sender_id] : others;
  }
}

function foldTodo(todo: TodoState, s: Submessage, senderId: number, me: number): void {
  const d = parse(s.content);
  if (!d) return;
  if (d.type === "new_task_list_title" && s.sender_id === senderId && typeof d.title === "string") todo.title = d.title;
  else if (d.type === "new_task" && typeof d.key === "number" && typeof d.task === "string") {
    const key = `${d.key},${s.sender_id}`;
    if (s.sender_id === me) todo.nextIdx = Math.max(todo.nextIdx, d.key + 1);
    if (todo.tasks.some((t) => t.key === key || t.task === d.task)) return;
    todo.tasks.push({ key, task: d.task, desc: str(d.desc), completed: d.completed === true });
  } else if (d.type === "strike" && typeof d.key === "string") {
    const task = todo.tasks.find((t) => t.key === d.key);
    if (task) task.completed = !task.completed;
  }
}

/** The submessage content of a vote for (1) or against (-1, taking one's vote back) an option. */
export function voteContent(option: PollOption, myUserId: number): Record<string, unknown> {
  return { type: "vote", key: option.key, vote: option.voters.includes(myUserId) ? -1 : 1 };
}

/** The submessage content of a new poll option. */
export function newOptionContent(poll: PollState, option: string): Record<string, unknown> {
  return { type: "new_option", idx: poll.nextIdx, option };
}

/** The submessage content of a new task (not done). */
export function newTaskContent(todo: TodoState, task: string, desc: string): Record<string, unknown> {
  return { type: "new_task", key: todo.nextIdx, task, desc, completed: false };
}

/** The submessage content that checks or unchecks a task. */
export function strikeContent(task: TodoTask): Record<string, unknown> {
  return { type: "strike", key: task.key };
}

/** The parameters of `POST /submessage` for a widget's message (https://zulip.com/api/send-submessage). */
export function submessageParams(messageId: number, content: Record<string, unknown>): { message_id: number; msg_type: "widget"; content: string } {
  return { message_id: messageId, msg_type: "widget", content: JSON.stringify(content) };
}

/**
 * A `submessage` event (https://zulip.com/api/get-events#submessage): the
 * submessage joins its message's `submessages` in the loaded list (once: a
 * repeated ID changes nothing).
 */
export function applySubmessageEvent(list: MessageList, event: DeliveredEvent<"submessage">): MessageList {
  const { id: _eventId, type: _type, submessage_id, ...rest } = event;
  const sub: Submessage = { ...rest, id: submessage_id };
  let changed = false;
  const messages = list.messages.map((m) => {
    if (m.id !== event.message_id || m.submessages.some((s) => s.id === submessage_id)) return m;
    changed = true;
    return { ...m, submessages: [...m.submessages, sub] };
  });
  return changed ? { ...list, messages } : list;
}
