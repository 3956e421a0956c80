import { useId, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { moveTopicParams } from "../../model/topics.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useAction } from "../ui/useAction.js";

/**
 * The "Move topic" / "Rename topic" dialog (https://zulip.com/help/move-content-to-another-channel,
 * https://zulip.com/help/rename-a-topic): the new topic name, the destination
 * channel (disabled, with the reason, when the organization does not let the
 * reader move between channels: `moveRefusal`), and whether the notification
 * bot posts in the old and the new topic. "Confirm" sends
 * `PATCH /messages/{messageId}` with `propagate_mode: change_all`; the
 * server's refusal shows in the dialog, a success closes it.
 */
export function MoveTopicDialog(props: {
  chat: Chat;
  state: ChatState;
  streamId: number;
  topic: string;
  messageId: number;
  mode: "move" | "rename";
  moveRefusal: string | null;
  onClose(): void;
}) {
  const { state } = props;
  const [topic, setTopic] = useState(props.topic);
  const [streamId, setStreamId] = useState(props.streamId);
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const ids = { topic: useId(), stream: useId(), reason: useId(), old: useId(), new: useId() };
  const save = useAction(async () => {
    const params = moveTopicParams({ fromStreamId: props.streamId, fromTopic: props.topic, toStreamId: streamId, toTopic: topic.trim(), notifyOld, notifyNew });
    await props.chat.api.call("PATCH", `/messages/${props.messageId}`, params);
  });
  const streams = [...state.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  const unchanged = topic.trim() === props.topic && streamId === props.streamId;
  return (
    <Dialog title={props.mode === "move" ? "Move topic" : "Rename topic"} onClose={props.onClose} class="move-topic-dialog">
      <form
        class="dialog-body"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await save.run()) props.onClose();
        }}
      >
        <div class="form-field">
          <label for={ids.stream}>Destination channel</label>
          <select
            id={ids.stream}
            value={String(streamId)}
            disabled={props.moveRefusal !== null}
            aria-describedby={props.moveRefusal ? ids.reason : undefined}
            onChange={(e) => setStreamId(Number((e.target as HTMLSelectElement).value))}
          >
            {streams.map((s) => (
              <option key={s.stream_id} value={String(s.stream_id)}>
                {s.name}
              </option>
            ))}
          </select>
          {props.moveRefusal && (
            <p class="field-hint" id={ids.reason}>
              {props.moveRefusal}
            </p>
          )}
        </div>
        <div class="form-field">
          <label for={ids.topic}>New topic name</label>
          <input
            id={ids.topic}
            type="text"
            value={topic}
            maxLength={Number(state.realmSettings.max_topic_length ?? 60)}
            onInput={(e) => setTopic((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="form-check">
          <input id={ids.old} type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld((e.target as HTMLInputElement).checked)} />
          <label for={ids.old}>Send automated notice to old topic</label>
        </div>
        <div class="form-check">
          <input id={ids.new} type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew((e.target as HTMLInputElement).checked)} />
          <label for={ids.new}>Send automated notice to new topic</label>
        </div>
        <ErrorNote error={save.error} />
        <footer class="dialog-footer">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="button-primary" disabled={save.pending || unchanged}>
            Confirm
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
