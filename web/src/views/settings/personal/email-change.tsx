import { useId, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import { isAdministrator } from "../../../model/roles.js";
import type { ChatState } from "../../../model/store.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";

/**
 * The account's email with "Change" (https://zulip.com/help/change-your-email-address):
 * `PATCH /settings` with `email` mails a confirmation link to the new
 * address; the address changes once the link is followed (the page at
 * `/accounts/confirm_new_email/<key>/`), and this row follows from the
 * `realm_user` event. Locked for non-administrators when the organization
 * sets `realm_email_changes_disabled`.
 */
export function EmailRow({ chat, state }: { chat: Chat; state: ChatState }) {
  const id = useId();
  const me = state.users.get(state.me.user_id);
  const current = me?.delivery_email ?? state.me.email;
  const locked = state.realmSettings.realm_email_changes_disabled === true && !isAdministrator(state);
  const [editing, setEditing] = useState(false);
  const [address, setAddress] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useAction(async () => {
    const wanted = address.trim();
    await chat.api.call("PATCH", "/settings", { email: wanted });
    setSentTo(wanted);
    setEditing(false);
    setAddress("");
  });
  return (
    <div class="settings-row">
      <span class="settings-label" id={`${id}-label`}>
        Email
      </span>
      <div class="settings-inline">
        <span aria-labelledby={`${id}-label`}>{current}</span>
        {!locked && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Change
          </button>
        )}
      </div>
      {locked && <span class="settings-hint">Email address changes are disabled in this organization: contact an administrator to change it.</span>}
      {editing && (
        <form
          class="settings-inline"
          aria-label="Change email address"
          onSubmit={(e) => {
            e.preventDefault();
            void send.run();
          }}
        >
          <label for={`${id}-new`}>New email</label>
          <input
            id={`${id}-new`}
            type="email"
            autoComplete="email"
            autoFocus
            maxLength={254}
            value={address}
            onInput={(e) => setAddress((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={send.pending || address.trim() === "" || address.trim() === current}>
            Send confirmation
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      )}
      <ErrorNote error={send.error} />
      {sentTo !== null && (
        <p role="status">
          Check your email ({sentTo}) to confirm the new address. Until then your account keeps {current}.
        </p>
      )}
    </div>
  );
}
