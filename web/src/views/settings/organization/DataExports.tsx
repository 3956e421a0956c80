import { useEffect, useState } from "preact/hooks";
import type { RealmExportWire } from "../../../../../shared/wire/realm-export.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { errorText, useAction } from "../../ui/useAction.js";
import { ActionButton } from "./UserActions.js";
import type { SectionProps } from "../types.js";

/** An export's status as Zulip's list words it. */
export function exportStatus(e: Pick<RealmExportWire, "pending" | "failed_timestamp" | "deleted_timestamp">): string {
  if (e.deleted_timestamp !== null) return "Deleted";
  if (e.failed_timestamp !== null) return "Failed";
  return e.pending ? "In progress" : "Complete";
}

/**
 * `#organization/data-exports-admin` (https://zulip.com/help/export-your-organization):
 * administrators start a public data export (`POST /export/realm`) and see
 * every export (`GET /export/realm`, then `realm_export` events) with who asked,
 * when, its status, the download link and "Delete" (`DELETE /export/realm/{id}`).
 */
export function DataExports(props: SectionProps) {
  const [fetched, setFetched] = useState<RealmExportWire[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = props.state.realmSettings.realm_exports as RealmExportWire[] | undefined;
  const api = props.chat.api;
  useEffect(() => {
    let on = true;
    api.call<{ exports: RealmExportWire[] }>("GET", "/export/realm").then(
      (r) => on && setFetched(r.exports),
      (e) => on && setError(errorText(e)),
    );
    return () => {
      on = false;
    };
  }, []);
  const start = useAction(async () => api.call("POST", "/export/realm"));
  const list = [...(live ?? fetched ?? [])].sort((a, b) => b.export_time - a.export_time);
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Data exports</h2>
      <p>A public data export holds the organization's settings, users, channels and public channel messages.</p>
      <div class="org-actions">
        <button type="button" class="button-primary" disabled={start.pending} onClick={() => void start.run()}>
          Start export of public data
        </button>
      </div>
      <ErrorNote error={start.error ?? error} />
      {list.length === 0 ? (
        <p>{fetched === null && !live && !error ? "Loading…" : "There are no data exports."}</p>
      ) : (
        <table aria-label="Data exports">
          <thead>
            <tr>
              <th scope="col">Requested by</th>
              <th scope="col">Time</th>
              <th scope="col">Status</th>
              <th scope="col">File</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((e) => (
              <tr key={e.id}>
                <td>{props.state.users.get(e.acting_user_id)?.full_name ?? "Unknown"}</td>
                <td>{new Date(e.export_time * 1000).toLocaleString()}</td>
                <td>{exportStatus(e)}</td>
                <td>{e.export_url ? <a href={e.export_url}>Download</a> : "—"}</td>
                <td>
                  {e.export_url && e.deleted_timestamp === null && (
                    <ActionButton label={`Delete export ${e.id}`} text="Delete" danger act={() => api.call("DELETE", `/export/realm/${e.id}`)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
