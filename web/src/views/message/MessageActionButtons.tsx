import { useEffect, useRef, useState } from "preact/hooks";
import { canDeleteMessage, canEditContent, canViewEditHistory } from "../../model/message-permissions.js";
import type { ChatState } from "../../model/store.js";
import type { Message } from "../../model/types.js";
import { ConfirmDialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { MenuList, useDismiss, type MenuItem } from "../ui/Popover.js";
import { errorText, useAction } from "../ui/useAction.js";
import type { MessageMenuActions } from "./actions.js";
import { startEditing } from "./editing.js";
import { EditHistoryDialog, ReadReceiptsDialog } from "./MessageDialogs.js";

/** What the buttons call: the menu's actions and starring. */
export type MessageButtonActions = MessageMenuActions & { toggleStar(message: Message): void };

type OpenDialog = "delete" | "history" | "receipts" | null;

/**
 * A message's own actions (https://zulip.com/help/message-actions), after
 * whatever buttons the row puts first: "Edit message" (own messages while the
 * organization allows), "Delete message" (with a confirmation), "Star" (a
 * toggle, `aria-pressed`), and the "Message actions" menu — "Quote and reply",
 * "Copy link to message", "Mark as unread from here", "View edit history"
 * (edited or moved messages, where history is shown) and "View read receipts".
 * A failure shows the server's message beside the buttons or in the dialog.
 */
export function MessageActionButtons(props: { state: ChatState; message: Message; actions: MessageButtonActions }) {
  const { state, message: m, actions } = props;
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const menuRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const local = !!m.local_id;
  const now = Date.now() / 1000;
  const starred = m.flags.includes("starred");
  const remove = useAction(() => actions.deleteMessage(m));
  useDismiss(menuOpen, menuRef, () => setMenuOpen(false), buttonRef);

  // The menu opens with its first item focused, so arrows and Enter work at once.
  useEffect(() => {
    if (menuOpen) menuRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [menuOpen]);

  /** Runs a menu action; its failure shows beside the buttons. */
  const attempt = (fn: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNotice(null);
    fn().then(
      () => done && setNotice(done),
      (err: unknown) => setError(errorText(err)),
    );
  };

  const items: MenuItem[] = [
    { label: "Quote and reply", onSelect: () => attempt(() => actions.quoteAndReply(m)) },
    {
      label: "Copy link to message",
      onSelect: () => attempt(() => navigator.clipboard.writeText(actions.messageLink(m)), "Link copied."),
    },
    { label: "Mark as unread from here", onSelect: () => attempt(() => actions.markUnreadFromHere(m)) },
    ...(canViewEditHistory(state, m) ? [{ label: "View edit history", onSelect: () => setDialog("history") }] : []),
    { label: "View read receipts", onSelect: () => setDialog("receipts") },
  ];

  const stop = (e: Event) => e.stopPropagation();
  return (
    <>
      {canEditContent(state, m, now) && (
        <button
          type="button"
          class="message-action"
          aria-label="Edit message"
          title="Edit message (e)"
          onClick={(e) => {
            stop(e);
            startEditing(m.id);
          }}
        >
          ✎
        </button>
      )}
      {canDeleteMessage(state, m, now) && (
        <button
          type="button"
          class="message-action"
          aria-label="Delete message"
          title="Delete message"
          onClick={(e) => {
            stop(e);
            remove.clearError();
            setDialog("delete");
          }}
        >
          ✕
        </button>
      )}
      <button
        type="button"
        class={`message-action star-toggle ${starred ? "starred" : ""}`}
        aria-pressed={starred}
        aria-label="Star"
        title={starred ? "Unstar this message (*)" : "Star this message (*)"}
        disabled={local}
        onClick={(e) => {
          stop(e);
          actions.toggleStar(m);
        }}
      >
        {starred ? "★" : "☆"}
      </button>
      <span class="message-menu-anchor" ref={menuRef} onClick={stop}>
        <button
          ref={buttonRef}
          type="button"
          class="message-action"
          aria-label="Message actions"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          disabled={local}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ⋮
        </button>
        {menuOpen && (
          <div class="message-menu">
            <MenuList
              label="Message actions"
              items={items}
              onDone={() => {
                setMenuOpen(false);
                // Focus back on the menu's button (a dialog opened from the menu returns it there too).
                buttonRef.current?.focus();
              }}
            />
          </div>
        )}
      </span>
      {(error || notice) && (
        <span class="message-action-status" onClick={stop}>
          <ErrorNote error={error} />
          {notice && <span role="status">{notice}</span>}
        </span>
      )}
      {dialog === "delete" && (
        <ConfirmDialog
          title="Delete message?"
          confirmLabel="Delete"
          pending={remove.pending}
          error={remove.error}
          onConfirm={() => void remove.run().then((ok) => ok && setDialog(null))}
          onClose={() => setDialog(null)}
        >
          <p>Deleting a message removes it for everyone.</p>
        </ConfirmDialog>
      )}
      {dialog === "history" && <EditHistoryDialog state={state} load={() => actions.editHistory(m)} onClose={() => setDialog(null)} />}
      {dialog === "receipts" && <ReadReceiptsDialog state={state} load={() => actions.readReceipts(m)} onClose={() => setDialog(null)} />}
    </>
  );
}
