import type { ComponentChildren } from "preact";
import { useId, useMemo, useState } from "preact/hooks";
import type { ChatState } from "../../model/store.js";
import type { Message } from "../../model/types.js";
import {
  newOptionContent,
  newTaskContent,
  strikeContent,
  voteContent,
  widgetState,
  type PollState,
  type TodoState,
} from "../../model/widgets.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useAction } from "../ui/useAction.js";
import "../../styles/compose-extras.css";

/** Sends one widget submessage for a message (`POST /submessage`); rejects with the server's refusal. */
export type SendSubmessage = (message: Message, content: Record<string, unknown>) => Promise<void>;

/**
 * A message's poll or to-do list, drawn from its submessages (see
 * model/widgets.ts) in place of its content; any other message shows
 * `children` (its rendered content). Without `send` (a local echo, a
 * read-only view) the controls are not shown.
 */
export function MessageWidget(props: { state: ChatState; message: Message; send?: SendSubmessage; children: ComponentChildren }) {
  const { message: m, state } = props;
  const widget = useMemo(() => widgetState(m.submessages, m.sender_id, state.me.user_id), [m.submessages, m.sender_id, state.me.user_id]);
  if (!widget) return <>{props.children}</>;
  const send = props.send ? (content: Record<string, unknown>) => props.send!(m, content) : undefined;
  return widget.kind === "poll" ? <Poll state={state} poll={widget} send={send} /> : <Todo state={state} todo={widget} send={send} />;
}

type Send = ((content: Record<string, unknown>) => Promise<void>) | undefined;

/** The voters' names, comma-separated ("Iago, Cordelia Lear"). */
function names(state: ChatState, ids: number[]): string {
  return ids.map((id) => state.users.get(id)?.full_name ?? "Unknown user").join(", ");
}

/**
 * A poll (https://zulip.com/help/create-a-poll): the question, each option
 * with its vote count as a toggle button (pressed when the reader voted) and
 * who voted, and "Add option".
 */
function Poll(props: { state: ChatState; poll: PollState; send: Send }) {
  const { poll, state } = props;
  const me = state.me.user_id;
  const act = useAction((content: Record<string, unknown>) => props.send!(content));
  // Adding has its own pending state, so a vote still on its way never swallows an added option.
  const add = useAction((content: Record<string, unknown>) => props.send!(content));
  const question = poll.question || "Poll";
  return (
    <div class="widget poll-widget" role="group" aria-label={`Poll: ${question}`}>
      <h3>{question}</h3>
      <ul class="poll-options">
        {poll.options.map((o) => (
          <li key={o.key} class="poll-option">
            <button
              type="button"
              class="poll-count"
              aria-pressed={o.voters.includes(me)}
              aria-label={`Vote for ${o.option} (${o.voters.length} ${o.voters.length === 1 ? "vote" : "votes"})`}
              disabled={!props.send || act.pending}
              onClick={() => void act.run(voteContent(o, me))}
            >
              {o.voters.length}
            </button>
            <span class="poll-option-text">{o.option}</span>
            {o.voters.length > 0 && <span class="poll-voters">({names(state, o.voters)})</span>}
          </li>
        ))}
      </ul>
      {props.send && (
        <AddItem
          label="New option"
          button="Add option"
          onAdd={(text) => (poll.options.some((o) => o.option === text) ? Promise.resolve(false) : add.run(newOptionContent(poll, text)))}
        />
      )}
      <ErrorNote error={act.error ?? add.error} />
    </div>
  );
}

/**
 * A collaborative to-do list (https://zulip.com/help/collaborative-to-do-lists):
 * the title, each task as a checkbox (anyone may check it), and "Add task".
 */
function Todo(props: { state: ChatState; todo: TodoState; send: Send }) {
  const { todo } = props;
  const act = useAction((content: Record<string, unknown>) => props.send!(content));
  // Adding has its own pending state, so a check still on its way never swallows an added task.
  const add = useAction((content: Record<string, unknown>) => props.send!(content));
  const title = todo.title || "Task list";
  return (
    <div class="widget todo-widget" role="group" aria-label={`To-do list: ${title}`}>
      <h3>{title}</h3>
      <ul class="todo-tasks">
        {todo.tasks.map((t) => (
          <li key={t.key} class={`todo-task ${t.completed ? "done" : ""}`}>
            <label>
              <input type="checkbox" checked={t.completed} disabled={!props.send || act.pending} onChange={() => void act.run(strikeContent(t))} />
              {/* One flex item, so the checkbox's name reads "task: description" without added spaces. */}
              <span>
                <span class="todo-name">{t.task}</span>
                {t.desc && <span class="todo-desc">: {t.desc}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {props.send && (
        <AddItem
          label="New task"
          button="Add task"
          onAdd={(text) => (todo.tasks.some((t) => t.task === text) ? Promise.resolve(false) : add.run(newTaskContent(todo, text, "")))}
        />
      )}
      <ErrorNote error={act.error ?? add.error} />
    </div>
  );
}

/** A text field and its button that adds an option or a task; the field empties once it was sent. */
function AddItem(props: { label: string; button: string; onAdd(text: string): Promise<boolean> }) {
  const [text, setText] = useState("");
  const id = useId();
  const add = async () => {
    const t = text.trim();
    if (t && (await props.onAdd(t))) setText("");
  };
  return (
    <div class="widget-add">
      <label class="visually-hidden" for={id}>
        {props.label}
      </label>
      <input
        id={id}
        type="text"
        placeholder={props.label}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            e.stopPropagation();
            void add();
          }
        }}
      />
      <button type="button" onClick={() => void add()}>
        {props.button}
      </button>
    </div>
  );
}
