import { format } from "date-fns";
import { useEffect, useState } from "preact/hooks";
import type { WireAttachment } from "../../../model/types.js";
import { formatFileSize, uploadSpaceText } from "../../../model/uploads.js";
import { ConfirmDialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { errorText, useAction } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";

/** `GET /attachments`'s answer (https://zulip.com/api/get-attachments). */
interface AttachmentsAnswer {
  attachments: WireAttachment[];
  /** The organization's upload space used, in bytes. */
  upload_space_used: number;
}

/**
 * Personal settings › Uploaded files (`#settings/uploaded-files`,
 * https://zulip.com/help/manage-your-uploaded-files): the reader's uploads,
 * newest first, with their size, date and the messages that link them, each
 * deletable after a confirmation (`DELETE /attachments/{id}`,
 * https://zulip.com/api/remove-attachment; the server's refusal shows in the
 * dialog), and the organization's upload space against `realm_upload_quota_mib`.
 */
export function UploadedFiles(props: SectionProps) {
  const { chat, state } = props;
  const [data, setData] = useState<AttachmentsAnswer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WireAttachment | null>(null);

  const load = async () => {
    try {
      setData(await chat.api.call<AttachmentsAnswer>("GET", "/attachments"));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorText(err));
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const remove = useAction(async (a: WireAttachment) => {
    await chat.api.call("DELETE", `/attachments/${a.id}`);
    setDeleting(null);
    await load();
  });

  const quota = state.realmSettings.realm_upload_quota_mib as number | null | undefined;
  const files = data ? [...data.attachments].sort((a, b) => b.create_time - a.create_time) : [];
  return (
    <section class="uploaded-files" aria-labelledby="uploaded-files-title">
      <h2 id="uploaded-files-title" tabIndex={-1}>
        Uploaded files
      </h2>
      <ErrorNote error={loadError} />
      {!data && !loadError && <p aria-busy="true">Loading…</p>}
      {data && <p class="upload-space">{uploadSpaceText(data.upload_space_used, quota)}</p>}
      {data && files.length === 0 && <p>You have not uploaded any files.</p>}
      {files.length > 0 && (
        <table class="uploaded-files-table">
          <caption class="visually-hidden">Your uploaded files</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Date uploaded</th>
              <th scope="col">Mentioned in</th>
              <th scope="col">Size</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {files.map((a) => (
              <tr key={a.id}>
                <td>
                  <a href={`/user_uploads/${a.path_id}`} target="_blank" rel="noopener noreferrer">
                    {a.name}
                  </a>
                </td>
                <td>{format(new Date(a.create_time), "PP")}</td>
                <td>
                  {a.messages.length === 0
                    ? "No messages"
                    : a.messages.map((m, i) => (
                        <span key={m.id}>
                          {i > 0 && ", "}
                          <a href={`#narrow/near/${m.id}`}>{format(new Date(m.date_sent), "PP")}</a>
                        </span>
                      ))}
                </td>
                <td>{formatFileSize(a.size)}</td>
                <td class="uploaded-file-actions">
                  <a href={`/user_uploads/download/${a.path_id}`} download={a.name} aria-label={`Download ${a.name}`}>
                    Download
                  </a>{" "}
                  <button
                    type="button"
                    class="button-danger"
                    aria-label={`Delete ${a.name}`}
                    onClick={() => {
                      remove.clearError();
                      setDeleting(a);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete file?"
          confirmLabel="Delete"
          pending={remove.pending}
          error={remove.error}
          onConfirm={() => void remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>
            <strong>{deleting.name}</strong> will be deleted permanently. Messages that link it will show a broken link.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
