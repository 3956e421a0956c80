import type { ChatState } from "../../model/store.js";
import { draftTarget, sortedDrafts, type Draft, type DraftSync } from "../../model/drafts.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useAction } from "../ui/useAction.js";
import { recipientText, whenText } from "./recipient.js";

/**
 * The "Drafts" list (`#drafts`,
 * https://zulip.com/help/view-and-edit-your-message-drafts): the reader's
 * drafts newest first, each with its recipient, last edit time and text,
 * "Restore" (back into the compose box, in its conversation) and "Delete"
 * (`DELETE /drafts/{id}`). Live from `drafts` events.
 */
export function DraftsList(props: { state: ChatState; drafts: DraftSync; onRestore(d: Draft): void }) {
  const list = sortedDrafts(props.state.drafts);
  if (props.state.userSettings.enable_drafts_synchronization === false) {
    return <p class="list-empty">Drafts are not saved: "Synchronize drafts" is off in your personal settings.</p>;
  }
  if (list.length === 0) return <p class="list-empty">No drafts.</p>;
  return (
    <ul class="list-items" aria-label="Drafts">
      {list.map((d) => (
        <DraftItem key={d.id} {...props} draft={d} />
      ))}
    </ul>
  );
}

function DraftItem(props: { state: ChatState; drafts: DraftSync; draft: Draft; onRestore(d: Draft): void }) {
  const { state, draft: d } = props;
  const remove = useAction(() => props.drafts.remove(d.id));
  const target = draftTarget(d);
  const to = recipientText(state, target);
  return (
    <li class="list-item" aria-label={`Draft to ${to}`}>
      <div class="list-item-meta">
        <strong>{to}</strong>
        <time dateTime={new Date(d.timestamp * 1000).toISOString()}>{whenText(d.timestamp, state.settings.twenty_four_hour_time)}</time>
      </div>
      <p class="list-item-content">{d.content}</p>
      <div class="list-item-actions">
        <button type="button" disabled={!target} onClick={() => props.onRestore(d)}>
          Restore
        </button>
        <button type="button" class="button-danger" disabled={remove.pending} onClick={() => void remove.run()}>
          Delete
        </button>
      </div>
      <ErrorNote error={remove.error} />
    </li>
  );
}
