import { useEffect, useId, useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ChatState } from "../../../model/store.js";
import type { StreamWireObject, SubscriptionWireObject } from "../../../model/types.js";
import { POST_POLICIES, privacyOf, privacyParams, type StreamPrivacy } from "../../../model/channels.js";
import { createRefusal, editRefusal } from "../../../model/channel-permissions.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { ConfirmDialog } from "../../ui/Dialog.js";
import { readerOf, useUserGroups } from "./data.js";
import { PrivacyFields } from "./PrivacyFields.js";

/**
 * The General tab of a stream's settings (https://zulip.com/help/rename-a-channel,
 * https://zulip.com/help/change-the-channel-description,
 * https://zulip.com/help/change-the-privacy-of-a-channel,
 * https://zulip.com/help/channel-posting-policy, https://zulip.com/help/archive-a-channel):
 * name and description, privacy and who can post (each saved with
 * `PATCH /streams/{id}`), and archiving after a confirmation
 * (`DELETE /streams/{id}`). For a reader who may not change them the fields
 * are disabled and the reason is said; the server's refusals show beside
 * each form. The fields follow live `stream` updates until edited.
 */
export function GeneralTab(props: { chat: Chat; state: ChatState; stream: StreamWireObject; sub: SubscriptionWireObject | undefined }) {
  const { chat, state, stream, sub } = props;
  const id = useId();
  const reader = readerOf(state);
  const refusal = editRefusal(reader, sub);
  const groups = useUserGroups(chat);
  const [name, setName] = useState(stream.name);
  const [description, setDescription] = useState(stream.description);
  const [privacy, setPrivacy] = useState<StreamPrivacy>(privacyOf(stream));
  const [postPolicy, setPostPolicy] = useState(stream.stream_post_policy);
  const [confirming, setConfirming] = useState(false);

  // Live changes (another person's rename) show in the fields unless the reader is editing them.
  const [edited, setEdited] = useState({ text: false, permissions: false });
  useEffect(() => {
    if (!edited.text) {
      setName(stream.name);
      setDescription(stream.description);
    }
  }, [stream.name, stream.description]);
  useEffect(() => {
    if (!edited.permissions) {
      setPrivacy(privacyOf(stream));
      setPostPolicy(stream.stream_post_policy);
    }
  }, [privacyOf(stream), stream.stream_post_policy]);

  const saveText = useAction(async () => {
    const params: Record<string, string> = {};
    if (name.trim() !== stream.name) params.new_name = name.trim();
    if (description !== stream.description) params.description = description;
    if (Object.keys(params).length > 0) await chat.api.call("PATCH", `/streams/${stream.stream_id}`, params);
    setEdited((e) => ({ ...e, text: false }));
  });
  const savePermissions = useAction(async () => {
    const params: Record<string, boolean | number> = {};
    if (privacy !== privacyOf(stream)) Object.assign(params, privacyParams(privacy));
    if (postPolicy !== stream.stream_post_policy) params.stream_post_policy = postPolicy;
    if (Object.keys(params).length > 0) await chat.api.call("PATCH", `/streams/${stream.stream_id}`, params);
    setEdited((e) => ({ ...e, permissions: false }));
  });
  const archive = useAction(async () => {
    await chat.api.call("DELETE", `/streams/${stream.stream_id}`);
    location.hash = "#channels/subscribed";
  });

  const privacyRefusal = (p: StreamPrivacy) => {
    if (!groups) return null;
    return createRefusal(p, reader, state.realmSettings, groups);
  };
  const disabled = refusal !== null;
  const describedBy = disabled ? `${id}-refusal` : undefined;

  return (
    <div class="stream-general">
      {refusal && (
        <p id={`${id}-refusal`} class="settings-note refusal-reason">
          {refusal}
        </p>
      )}
      <form
        class="settings-form"
        aria-label="Name and description"
        onSubmit={(e) => {
          e.preventDefault();
          void saveText.run();
        }}
      >
        <h3>Name and description</h3>
        <div class="settings-row">
          <label for={`${id}-name`}>Channel name</label>
          <input
            id={`${id}-name`}
            type="text"
            required
            maxLength={Number(state.realmSettings.max_stream_name_length ?? 60)}
            disabled={disabled}
            aria-describedby={describedBy}
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              setEdited((x) => ({ ...x, text: true }));
            }}
          />
        </div>
        <div class="settings-row">
          <label for={`${id}-description`}>Description</label>
          <textarea
            id={`${id}-description`}
            rows={2}
            maxLength={Number(state.realmSettings.max_stream_description_length ?? 1024)}
            disabled={disabled}
            aria-describedby={describedBy}
            value={description}
            onInput={(e) => {
              setDescription(e.currentTarget.value);
              setEdited((x) => ({ ...x, text: true }));
            }}
          />
        </div>
        <ErrorNote error={saveText.error} />
        <div class="form-actions">
          <button type="submit" class="button-primary" disabled={disabled || saveText.pending || !edited.text}>
            Save name and description
          </button>
        </div>
      </form>

      <form
        class="settings-form"
        aria-label="Permissions"
        onSubmit={(e) => {
          e.preventDefault();
          void savePermissions.run();
        }}
      >
        <h3>Permissions</h3>
        <PrivacyFields
          value={privacy}
          disabled={disabled}
          realm={state.realmSettings}
          refusal={privacyRefusal}
          onChange={(p) => {
            setPrivacy(p);
            setEdited((x) => ({ ...x, permissions: true }));
          }}
        />
        <div class="settings-row">
          <label for={`${id}-post`}>Who can post to the channel</label>
          <select
            id={`${id}-post`}
            disabled={disabled}
            aria-describedby={describedBy}
            value={String(postPolicy)}
            onChange={(e) => {
              setPostPolicy(Number(e.currentTarget.value));
              setEdited((x) => ({ ...x, permissions: true }));
            }}
          >
            {POST_POLICIES.map((p) => (
              <option key={p.value} value={String(p.value)}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <ErrorNote error={savePermissions.error} />
        <div class="form-actions">
          <button type="submit" class="button-primary" disabled={disabled || savePermissions.pending || !edited.permissions}>
            Save permissions
          </button>
        </div>
      </form>

      <section class="settings-form" aria-label="Archive channel">
        <h3>Archive channel</h3>
        <p class="settings-note">Archiving a channel unsubscribes everyone and hides its messages; it cannot be undone here.</p>
        <div class="form-actions">
          <button type="button" class="button-danger" disabled={disabled} aria-describedby={describedBy} onClick={() => setConfirming(true)}>
            Archive channel
          </button>
        </div>
      </section>
      {confirming && (
        <ConfirmDialog
          title={`Archive ${stream.name}?`}
          confirmLabel="Archive"
          pending={archive.pending}
          error={archive.error}
          onConfirm={() => void archive.run()}
          onClose={() => {
            setConfirming(false);
            archive.clearError();
          }}
        >
          <p>Everyone will be unsubscribed from {stream.name}, and its messages will no longer be shown.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
