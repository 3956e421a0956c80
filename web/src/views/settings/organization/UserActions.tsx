import { useState } from "preact/hooks";
import { ConfirmDialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";

/**
 * A row's action button that asks first (Zulip's confirmation before
 * deactivating): the button (accessible name `label`), then a dialog
 * titled `title` whose confirm button runs `act`; the server's refusal shows
 * in the dialog.
 */
export function ConfirmedAction(props: {
  label: string;
  buttonText: string;
  title: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  danger?: boolean;
  act(): Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const action = useAction(props.act);
  return (
    <>
      <button type="button" class={props.danger === false ? "" : "button-danger"} aria-label={props.label} disabled={props.disabled} onClick={() => setOpen(true)}>
        {props.buttonText}
      </button>
      {open && (
        <ConfirmDialog
          title={props.title}
          confirmLabel={props.confirmLabel}
          pending={action.pending}
          error={action.error}
          onConfirm={async () => {
            if (await action.run()) setOpen(false);
          }}
          onClose={() => {
            action.clearError();
            setOpen(false);
          }}
        >
          <p>{props.question}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A button that runs an action at once, with the server's refusal shown beside it. */
export function ActionButton(props: { label: string; text: string; disabled?: boolean; danger?: boolean; act(): Promise<unknown> }) {
  const action = useAction(props.act);
  return (
    <>
      <button type="button" class={props.danger ? "button-danger" : ""} aria-label={props.label} disabled={props.disabled || action.pending} onClick={() => void action.run()}>
        {props.text}
      </button>
      <ErrorNote error={action.error} />
    </>
  );
}
