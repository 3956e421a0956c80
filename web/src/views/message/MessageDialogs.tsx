import { format } from "date-fns";
import { useEffect, useState } from "preact/hooks";
import { historyChange, type HistoryEntry } from "../../model/message-actions.js";
import type { ChatState } from "../../model/store.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { errorText } from "../ui/useAction.js";
import { RenderedContent } from "./RenderedContent.js";

/** Loads once on mount: the value, or the server's message of its refusal. */
function useLoad<T>(load: () => Promise<T>): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (v) => live && setValue(v),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { value, error };
}

const CHANGE_TITLES = { original: "Original message", edited: "Edited", moved: "Moved", "edited and moved": "Edited and moved" } as const;

/**
 * "Message edit history" (https://zulip.com/help/view-a-messages-edit-history):
 * every version from `GET /messages/{id}/history`, the original first, each
 * with who and when, the content (an edit as the server's diff: inserted and
 * deleted text marked) and a topic or stream move as "old → new". A refusal
 * (history turned off) shows the server's message.
 */
export function EditHistoryDialog(props: { state: ChatState; load(): Promise<HistoryEntry[]>; onClose(): void }) {
  const { state } = props;
  const { value, error } = useLoad(props.load);
  const userName = (id: number | null) => (id === null ? "Someone" : (state.users.get(id)?.full_name ?? "Someone"));
  const streamName = (id: number) => state.streams.get(id)?.name ?? `#${id}`;
  return (
    <Dialog title="Message edit history" onClose={props.onClose} class="edit-history-dialog">
      <ErrorNote error={error} />
      {value === null && !error && <p role="status">Loading…</p>}
      {value && (
        <ol class="edit-history" aria-label="Versions">
          {value.map((entry, i) => {
            const change = historyChange(entry, i);
            const when = new Date(entry.timestamp * 1000);
            return (
              <li key={`${entry.timestamp}-${i}`} class="edit-history-entry">
                <p class="edit-history-meta">
                  <strong>{CHANGE_TITLES[change]}</strong> by {userName(entry.user_id)}{" "}
                  <time dateTime={when.toISOString()}>{format(when, "PPp")}</time>
                </p>
                {entry.prev_stream !== undefined && entry.stream !== undefined && (
                  <p class="edit-history-move">
                    Channel: <del>{streamName(entry.prev_stream)}</del> → <ins>{streamName(entry.stream)}</ins>
                  </p>
                )}
                {entry.prev_topic !== undefined && (
                  <p class="edit-history-move">
                    Topic: <del>{entry.prev_topic}</del> → <ins>{entry.topic}</ins>
                  </p>
                )}
                {(i === 0 || entry.prev_content !== undefined) && (
                  <RenderedContent
                    class="edit-history-content"
                    html={i === 0 ? entry.rendered_content : (entry.content_html_diff ?? entry.rendered_content)}
                    selfUserId={state.me.user_id}
                  />
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Dialog>
  );
}

/**
 * "Read receipts" (https://zulip.com/help/read-receipts): the people who
 * read the message (`GET /messages/{id}/read_receipts`), by name; the
 * server's message when the organization turned receipts off.
 */
export function ReadReceiptsDialog(props: { state: ChatState; load(): Promise<number[]>; onClose(): void }) {
  const { state } = props;
  const { value, error } = useLoad(props.load);
  const names = (value ?? []).map((id) => state.users.get(id)?.full_name ?? "Unknown user").sort((a, b) => a.localeCompare(b));
  return (
    <Dialog title="Read receipts" onClose={props.onClose} class="read-receipts-dialog">
      <ErrorNote error={error} />
      {value === null && !error && <p role="status">Loading…</p>}
      {value && value.length === 0 && <p>No one has read this message yet.</p>}
      {value && value.length > 0 && (
        <>
          <p>This message has been read by {value.length === 1 ? "1 person" : `${value.length} people`}:</p>
          <ul class="read-receipts" aria-label="Read by">
            {names.map((name, i) => (
              <li key={`${name}-${i}`}>{name}</li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
