import { useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import {
  localInputToTimestamp,
  schedulePresets,
  scheduledTarget,
  sortedScheduled,
  timestampToLocalInput,
  type ScheduledMessage,
} from "../../model/scheduled.js";
import { RenderedContent } from "../message/RenderedContent.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useAction } from "../ui/useAction.js";
import { hourText, recipientText, whenText } from "../drafts/recipient.js";

/**
 * The "Scheduled messages" list (`#scheduled`,
 * https://zulip.com/help/schedule-a-message#manage-scheduled-messages): each
 * message with its delivery time, recipient and content, soonest first, and
 * "Edit" (into the compose box, where saving changes it), "Reschedule"
 * (`PATCH /scheduled_messages/{id}` with a new `scheduled_delivery_timestamp`)
 * and "Delete" (`DELETE /scheduled_messages/{id}`). Live from `scheduled_messages` events.
 */
export function ScheduledList(props: { chat: Chat; state: ChatState; onEdit(m: ScheduledMessage): void }) {
  const { state } = props;
  const list = sortedScheduled(state.scheduled);
  const [rescheduling, setRescheduling] = useState<ScheduledMessage | null>(null);
  if (list.length === 0) return <p class="list-empty">No scheduled messages.</p>;
  return (
    <>
      <ul class="list-items" aria-label="Scheduled messages">
        {list.map((m) => (
          <ScheduledItem key={m.scheduled_message_id} {...props} message={m} onReschedule={() => setRescheduling(m)} />
        ))}
      </ul>
      {rescheduling && <RescheduleDialog chat={props.chat} state={state} message={rescheduling} onClose={() => setRescheduling(null)} />}
    </>
  );
}

function ScheduledItem(props: { chat: Chat; state: ChatState; message: ScheduledMessage; onEdit(m: ScheduledMessage): void; onReschedule(): void }) {
  const { state, message: m } = props;
  const remove = useAction(() => props.chat.api.call("DELETE", `/scheduled_messages/${m.scheduled_message_id}`));
  const to = recipientText(state, scheduledTarget(m));
  const when = whenText(m.scheduled_delivery_timestamp, state.settings.twenty_four_hour_time);
  return (
    <li class="list-item" aria-label={`Scheduled message to ${to}`}>
      <div class="list-item-meta">
        <strong>{to}</strong>
        <time dateTime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>{when}</time>
        {m.failed && <span class="error-note">Failed to send</span>}
      </div>
      <RenderedContent html={m.rendered_content} selfUserId={state.me.user_id} class="list-item-content" />
      <div class="list-item-actions">
        <button type="button" onClick={() => props.onEdit(m)}>
          Edit
        </button>
        <button type="button" onClick={props.onReschedule}>
          Reschedule
        </button>
        <button type="button" class="button-danger" disabled={remove.pending} onClick={() => void remove.run()}>
          Delete
        </button>
      </div>
      <ErrorNote error={remove.error} />
    </li>
  );
}

/** Picks a new delivery time: Zulip's presets or a custom date and time; the server's refusal shows in the dialog. */
function RescheduleDialog(props: { chat: Chat; state: ChatState; message: ScheduledMessage; onClose(): void }) {
  const m = props.message;
  const [custom, setCustom] = useState(timestampToLocalInput(m.scheduled_delivery_timestamp));
  const save = useAction(async (timestamp: number) => {
    await props.chat.api.call("PATCH", `/scheduled_messages/${m.scheduled_message_id}`, { scheduled_delivery_timestamp: timestamp });
    props.onClose();
  });
  const twentyFour = props.state.settings.twenty_four_hour_time;
  const presets = schedulePresets(new Date(), (d) => hourText(d, twentyFour));
  const customTs = localInputToTimestamp(custom);
  return (
    <Dialog title="Reschedule message" onClose={props.onClose}>
      <div class="dialog-body">
        <div class="list-item-actions">
          {presets.map((p) => (
            <button key={p.label} type="button" disabled={save.pending} onClick={() => void save.run(p.timestamp)}>
              {p.label}
            </button>
          ))}
        </div>
        <p class="schedule-custom">
          <label>
            New time{" "}
            <input type="datetime-local" value={custom} onInput={(e) => setCustom(e.currentTarget.value)} />
          </label>
        </p>
        <ErrorNote error={save.error} />
      </div>
      <footer class="dialog-footer">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" class="button-primary" disabled={save.pending || customTs === undefined} onClick={() => customTs !== undefined && void save.run(customTs)}>
          Reschedule
        </button>
      </footer>
    </Dialog>
  );
}
