import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A modal dialog on the native `<dialog>` element (`showModal`: focus moves
 * in and stays in, the page behind is inert, Esc closes): a heading that
 * names it, the content, and a "Close" button. `onClose` runs however it
 * closes (Esc, the button, a click on the backdrop).
 */
export function Dialog(props: { title: string; onClose(): void; children: ComponentChildren; class?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const closed = () => onClose.current();
    dialog.addEventListener("close", closed);
    return () => {
      dialog.removeEventListener("close", closed);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`app-dialog ${props.class ?? ""}`}
      aria-labelledby={titleId}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === ref.current) ref.current?.close();
      }}
    >
      <div class="dialog-inner">
        <header class="dialog-header">
          <h2 id={titleId}>{props.title}</h2>
          <button type="button" class="dialog-close" aria-label="Close" onClick={() => ref.current?.close()}>
            ×
          </button>
        </header>
        {props.children}
      </div>
    </dialog>
  );
}

/**
 * A confirmation dialog: the question, a "Cancel" button and the action's
 * button (named by `confirmLabel`), and the server's message when the action fails.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div class="dialog-body">{props.children}</div>
      {props.error && (
        <p class="error-note" role="alert">
          {props.error}
        </p>
      )}
      <footer class="dialog-footer">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" class="button-danger" disabled={props.pending} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </footer>
    </Dialog>
  );
}
