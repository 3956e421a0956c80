import type { RefObject } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ApiError } from "../../api/client.js";
import { createXhrUploader, type UploadFn } from "../../api/upload.js";
import { finishUpload, insertBlock, replaceText, uploadingPlaceholder, uploadRefusal } from "../../model/uploads.js";
import { errorText } from "../ui/useAction.js";
import "../../styles/uploads.css";

/** One file uploading from the compose box: bytes sent of its total. */
export interface UploadItem {
  id: number;
  name: string;
  loaded: number;
  total: number;
}

/** What {@link useUploads} needs of the compose box. */
export interface UploadsHost {
  /** Uploads one file; default: `POST /json/user_uploads` over XMLHttpRequest. */
  upload?: UploadFn;
  /** `max_file_upload_size_mib` (https://zulip.com/api/register-queue); undefined: the server alone checks. */
  maxSizeMib?: number;
  /** The message box, for where the placeholder goes (its selection); null while closed (then at the end). */
  textarea: RefObject<HTMLTextAreaElement>;
  getText(): string;
  setText(text: string): void;
  /** Shows a refusal (too big, the server's message) where the person acted. */
  onError(message: string): void;
}

/** The compose box's uploads: the files in flight, starting and cancelling them. */
export interface Uploads {
  items: UploadItem[];
  /** Checks each file's size (refused ones are reported and not sent), then uploads the rest at once. */
  start(files: File[]): void;
  /** Aborts one upload and removes its placeholder. */
  cancel(id: number): void;
}

let nextId = 1;
let defaultUploader: UploadFn | null = null;

/**
 * Uploads from the compose box as Zulip's web app does
 * (https://zulip.com/help/share-and-upload-files): each accepted file puts
 * `[Uploading name…]()` on a line of its own at the caret, uploads with its
 * progress, and its placeholder becomes `[name](/user_uploads/…)` when stored,
 * or disappears with the server's message shown when refused.
 */
export function useUploads(host: UploadsHost): Uploads {
  const [items, setItems] = useState<UploadItem[]>([]);
  const aborts = useRef(new Map<number, AbortController>());
  const hostRef = useRef(host);
  hostRef.current = host;
  useEffect(() => () => aborts.current.forEach((a) => a.abort()), []);

  const edit = (next: string, caret?: number) => {
    const ta = hostRef.current.textarea.current;
    if (ta) {
      ta.value = next;
      if (caret !== undefined && document.activeElement === ta) ta.setSelectionRange(caret, caret);
    }
    hostRef.current.setText(next);
  };
  const drop = (id: number) => {
    aborts.current.delete(id);
    setItems((list) => list.filter((i) => i.id !== id));
  };

  const startOne = (file: File) => {
    const h = hostRef.current;
    const refusal = uploadRefusal(file, h.maxSizeMib);
    if (refusal) return h.onError(refusal);
    const id = nextId++;
    const placeholder = uploadingPlaceholder(file.name);
    const text = h.getText();
    const ta = h.textarea.current;
    const at = ta && !ta.hidden ? { start: ta.selectionStart, end: ta.selectionEnd } : { start: text.length, end: text.length };
    const inserted = insertBlock(text, at.start, at.end, placeholder);
    edit(inserted.text, inserted.caret);
    const abort = new AbortController();
    aborts.current.set(id, abort);
    setItems((list) => [...list, { id, name: file.name, loaded: 0, total: file.size }]);
    const upload = h.upload ?? (defaultUploader ??= createXhrUploader());
    upload(file, {
      signal: abort.signal,
      onProgress: (p) => setItems((list) => list.map((i) => (i.id === id ? { ...i, loaded: p.loaded, total: p.total } : i))),
    }).then(
      ({ url }) => {
        drop(id);
        edit(finishUpload(hostRef.current.getText(), file.name, url));
      },
      (err: unknown) => {
        drop(id);
        edit(replaceText(hostRef.current.getText(), placeholder, "").text);
        if (!(err instanceof ApiError && err.code === "ABORTED")) hostRef.current.onError(errorText(err));
      },
    );
  };

  return {
    items,
    start: (files) => files.forEach(startOne),
    cancel: (id) => aborts.current.get(id)?.abort(),
  };
}

/** The files of a drop or a paste (a paste of text has none). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  if (data.files && data.files.length > 0) return [...data.files];
  return [...(data.items ?? [])].filter((i) => i.kind === "file").flatMap((i) => i.getAsFile() ?? []);
}

/**
 * The drag-and-drop handlers of an element that takes dropped files: a drag
 * of files may drop there, and a drop of files goes to `onFiles` (and no
 * further up). Drops of anything else are left to the browser.
 */
export function fileDropProps(onFiles: (files: File[]) => void) {
  return {
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    },
    onDrop: (e: DragEvent) => {
      const files = filesOf(e.dataTransfer);
      if (files.length === 0) return;
      e.preventDefault();
      e.stopPropagation();
      onFiles(files);
    },
  };
}

/** A paste handler taking pasted files (not their names as text, which the browser would paste); text pastes as usual. */
export function filePasteHandler(onFiles: (files: File[]) => void) {
  return (e: ClipboardEvent) => {
    const files = filesOf(e.clipboardData);
    if (files.length === 0) return;
    e.preventDefault();
    onFiles(files);
  };
}

/** One upload in flight: its name, a progress bar (percent sent) and "Cancel". */
function UploadRow(props: { item: UploadItem; onCancel(): void }) {
  const id = useId();
  const { item } = props;
  const percent = item.total > 0 ? Math.round((item.loaded / item.total) * 100) : 0;
  return (
    <li class="compose-upload">
      <span id={id} class="compose-upload-name">
        Uploading {item.name}…
      </span>
      <progress max={100} value={percent} aria-labelledby={id}>
        {percent}%
      </progress>
      <button type="button" class="compose-upload-cancel" aria-describedby={id} onClick={props.onCancel}>
        Cancel
      </button>
    </li>
  );
}

/** The uploads in flight under the message box (nothing when none). */
export function UploadList(props: { uploads: Uploads }) {
  if (props.uploads.items.length === 0) return null;
  return (
    <ul class="compose-uploads" aria-label="Uploads">
      {props.uploads.items.map((item) => (
        <UploadRow key={item.id} item={item} onCancel={() => props.uploads.cancel(item.id)} />
      ))}
    </ul>
  );
}

/** The "Upload files" button and the hidden file input behind it (several files at once). */
export function UploadButton(props: { onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" class="compose-upload-button" onClick={() => input.current?.click()}>
        <svg class="compose-upload-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
            fill="none"
            stroke="currentColor"
            stroke-width="1.8"
            stroke-linecap="round"
          />
        </svg>{" "}
        Upload files
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = "";
          if (files.length) props.onFiles(files);
        }}
      />
    </>
  );
}
