import { useEffect, useId, useRef, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import { isAdministrator } from "../../../model/roles.js";
import type { ChatState } from "../../../model/store.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";
import { postForm } from "../../../api/form.js";
import { ProfileFields } from "./profile-fields.js";

/**
 * "Profile" (`#settings/profile`, https://zulip.com/help/edit-your-profile):
 * the full name (`PATCH /settings` `full_name`; locked for non-administrators
 * when the organization sets `realm_name_changes_disabled`), the avatar
 * (upload with a preview, `POST /users/me/avatar`; delete, `DELETE
 * /users/me/avatar`), the email shown, and the custom profile fields the
 * person fills in (`PATCH /users/me/profile_data`).
 */
export function ProfileSection({ chat, state }: SectionProps) {
  const me = state.users.get(state.me.user_id);
  return (
    <div>
      <h2 tabIndex={-1}>Profile</h2>
      <div class="settings-form">
        <FullNameForm chat={chat} state={state} />
        <div class="settings-row">
          <span class="settings-label">Email</span>
          <span>{me?.delivery_email ?? state.me.email}</span>
        </div>
        <AvatarEditor chat={chat} avatarUrl={me?.avatar_url ?? null} />
        <ProfileFields chat={chat} state={state} fields={state.people.profileFields} />
      </div>
    </div>
  );
}

function FullNameForm({ chat, state }: { chat: Chat; state: ChatState }) {
  const id = useId();
  const [name, setName] = useState(state.me.full_name);
  useEffect(() => setName(state.me.full_name), [state.me.full_name]);
  const locked = state.realmSettings.realm_name_changes_disabled === true && !isAdministrator(state);
  const save = useAction(() => chat.api.call("PATCH", "/settings", { full_name: name.trim() }));
  return (
    <form
      class="settings-row"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <label for={id}>Full name</label>
      <div class="settings-inline">
        <input id={id} value={name} maxLength={60} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} aria-describedby={locked ? `${id}-locked` : undefined} />
        <button type="submit" disabled={save.pending || name.trim() === state.me.full_name}>
          Save name
        </button>
      </div>
      {locked && (
        <span class="settings-hint" id={`${id}-locked`}>
          Name changes are disabled in this organization: contact an administrator to change your name.
        </span>
      )}
      <ErrorNote error={save.error} />
    </form>
  );
}

function AvatarEditor({ chat, avatarUrl }: { chat: Chat; avatarUrl: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const upload = useAction(async (file: File) => {
    const form = new FormData();
    form.append("file", file, file.name);
    setPreview(URL.createObjectURL(file));
    try {
      await postForm("/users/me/avatar", form);
    } finally {
      setPreview(null);
      if (input.current) input.current.value = "";
    }
  });
  const remove = useAction(() => chat.api.call("DELETE", "/users/me/avatar"));
  const shown = preview ?? avatarUrl;
  return (
    <div class="settings-row">
      <span class="settings-label">Profile picture</span>
      <div class="settings-avatar">
        {shown && <img src={shown} alt="Your profile picture" width={100} height={100} />}
        <div class="settings-inline">
          <label class="button-like">
            {upload.pending ? "Uploading…" : "Upload new profile picture"}
            <input
              ref={input}
              type="file"
              accept="image/*"
              class="visually-hidden"
              disabled={upload.pending}
              onChange={(e) => {
                const file = (e.currentTarget as HTMLInputElement).files?.[0];
                if (file) void upload.run(file);
              }}
            />
          </label>
          <button type="button" disabled={remove.pending} onClick={() => void remove.run()}>
            Delete profile picture
          </button>
        </div>
      </div>
      <ErrorNote error={upload.error ?? remove.error} />
    </div>
  );
}
