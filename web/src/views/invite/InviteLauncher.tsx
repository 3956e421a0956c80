import { useEffect, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { canInvite } from "../../model/invites.js";

type DialogModule = typeof import("./InviteDialog.js");

/**
 * Where the chat screen opens "Invite users to organization": the open state
 * and the dialog, whose code loads with the first opening (it is not part of
 * the first screen). `open` is undefined for people the organization does
 * not let invite, so the personal menu and the sidebar show no entry.
 */
export function useInviteLauncher(chat: Chat, state: ChatState): { open: (() => void) | undefined; dialog: preact.JSX.Element | null } {
  const [shown, setShown] = useState(false);
  const [mod, setMod] = useState<DialogModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (shown && !mod) import("./InviteDialog.js").then(setMod, () => setFailed(true));
  }, [shown]);
  const allowed = canInvite(state);
  const close = () => {
    setShown(false);
    setFailed(false);
  };
  let dialog: preact.JSX.Element | null = null;
  if (shown && mod) dialog = <mod.InviteDialog chat={chat} state={state} onClose={close} />;
  else if (shown && failed)
    dialog = (
      <p class="error-note" role="alert">
        The invitation dialog could not be loaded. Check your connection and try again.{" "}
        <button type="button" onClick={close}>
          Dismiss
        </button>
      </p>
    );
  return { open: allowed ? () => setShown(true) : undefined, dialog };
}
