import { useId, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ChatState } from "../../../model/store.js";
import { Dialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";
import { CopyButton, SettingSelect, SettingsGroup, SettingToggle } from "./controls.js";
import { EmailRow } from "./email-change.js";

/** Who may see one's real email (`email_address_visibility`, https://zulip.com/help/configure-email-visibility). */
const EMAIL_VISIBILITY = [
  { value: 1, label: "Everyone" },
  { value: 2, label: "Members only" },
  { value: 3, label: "Administrators only" },
  { value: 4, label: "Nobody" },
  { value: 5, label: "Moderators and administrators" },
];

/**
 * "Account & privacy" (`#settings/account-and-privacy`,
 * https://zulip.com/help/change-your-password and
 * https://zulip.com/help/api-keys): the account's email and its change
 * (`EmailRow`: a link mailed to the new address), the password change
 * (`PATCH /settings` with `old_password` and `new_password`), the API key
 * (shown after the password, `POST /json/fetch_api_key`; regenerated with
 * `POST /users/me/api_key/regenerate`) and the privacy settings.
 */
export function AccountAndPrivacySection({ chat, state }: SectionProps) {
  const settings = state.userSettings;
  return (
    <div>
      <h2 tabIndex={-1}>Account &amp; privacy</h2>
      <div class="settings-form">
        <SettingsGroup title="Account">
          <EmailRow chat={chat} state={state} />
          <PasswordForm chat={chat} state={state} />
          <ApiKeyButton chat={chat} />
        </SettingsGroup>
        <SettingsGroup title="Privacy">
          <SettingToggle chat={chat} settings={settings} name="send_private_typing_notifications" label="Let recipients see when I'm typing direct messages" />
          <SettingToggle chat={chat} settings={settings} name="send_stream_typing_notifications" label="Let recipients see when I'm typing messages in channels" />
          <SettingToggle chat={chat} settings={settings} name="send_read_receipts" label="Let others see when I've read messages" />
          <SettingToggle chat={chat} settings={settings} name="presence_enabled" label="Display my availability to other users" />
          <SettingSelect chat={chat} settings={settings} name="email_address_visibility" label="Who can access your email address" choices={EMAIL_VISIBILITY} />
        </SettingsGroup>
      </div>
    </div>
  );
}

function PasswordForm({ chat, state }: { chat: Chat; state: ChatState }) {
  const id = useId();
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const [done, setDone] = useState(false);
  const minLength = Number(state.realmSettings.password_min_length ?? 6);
  const tooShort = newPassword.length > 0 && newPassword.length < minLength;
  const save = useAction(async () => {
    setDone(false);
    await chat.api.call("PATCH", "/settings", { old_password: oldPassword, new_password: newPassword });
    setOld("");
    setNew("");
    setDone(true);
  });
  return (
    <form
      class="settings-form"
      aria-label="Change password"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <div class="settings-row">
        <label for={`${id}-old`}>Old password</label>
        <input id={`${id}-old`} type="password" autoComplete="current-password" value={oldPassword} onInput={(e) => setOld((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <div class="settings-row">
        <label for={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          aria-describedby={`${id}-hint`}
          onInput={(e) => setNew((e.currentTarget as HTMLInputElement).value)}
        />
        <span class={tooShort ? "settings-hint form-error" : "settings-hint"} id={`${id}-hint`}>
          {tooShort ? `Too short: at least ${minLength} characters.` : `At least ${minLength} characters; a long passphrase is strongest.`}
        </span>
      </div>
      <div>
        <button type="submit" disabled={save.pending || oldPassword === "" || newPassword === ""}>
          Change password
        </button>
      </div>
      <ErrorNote error={save.error} />
      {done && <p role="status">Your password has been changed.</p>}
    </form>
  );
}

/** "Manage your API key": a dialog that asks the password, then shows the key with "Generate new API key". */
function ApiKeyButton({ chat }: { chat: Chat }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="settings-row">
      <span class="settings-label">API key</span>
      <div>
        <button type="button" onClick={() => setOpen(true)}>
          Manage your API key
        </button>
      </div>
      {open && <ApiKeyDialog chat={chat} onClose={() => setOpen(false)} />}
    </div>
  );
}

function ApiKeyDialog({ chat, onClose }: { chat: Chat; onClose(): void }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [key, setKey] = useState<string | null>(null);
  const fetchKey = useAction(async () => {
    const res = await chat.api.call<{ api_key: string }>("POST", "/fetch_api_key", { password });
    setPassword("");
    setKey(res.api_key);
  });
  const regenerate = useAction(async () => {
    const res = await chat.api.call<{ api_key: string }>("POST", "/users/me/api_key/regenerate");
    setKey(res.api_key);
  });
  return (
    <Dialog title="Manage your API key" onClose={onClose}>
      {key === null ? (
        <form
          class="settings-form"
          onSubmit={(e) => {
            e.preventDefault();
            void fetchKey.run();
          }}
        >
          <p>Enter your password to see your API key.</p>
          <div class="settings-row">
            <label for={id}>Your password</label>
            <input id={id} type="password" autoComplete="current-password" autoFocus value={password} onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)} />
          </div>
          <ErrorNote error={fetchKey.error} />
          <div class="dialog-footer">
            <button type="submit" disabled={fetchKey.pending || password === ""}>
              Get API key
            </button>
          </div>
        </form>
      ) : (
        <div class="settings-form">
          <div class="settings-row">
            <span class="settings-label" id={`${id}-key`}>
              Your API key
            </span>
            <code class="api-key" aria-labelledby={`${id}-key`}>
              {key}
            </code>
          </div>
          <p class="settings-hint">Anyone with this key can act as you: keep it secret. Generating a new key stops the old one at once.</p>
          <div class="settings-inline">
            <CopyButton text={key} label="Copy API key" />
            <button type="button" class="button-danger" disabled={regenerate.pending} onClick={() => void regenerate.run()}>
              Generate new API key
            </button>
          </div>
          <ErrorNote error={regenerate.error} />
        </div>
      )}
    </Dialog>
  );
}
