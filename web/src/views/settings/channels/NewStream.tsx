import { useEffect, useId, useState } from "preact/hooks";
import type { SectionProps } from "../types.js";
import { POST_POLICIES, privacyParams, type StreamPrivacy } from "../../../model/channels.js";
import { createRefusal, subscribeOthersRefusal } from "../../../model/channel-permissions.js";
import { RecipientPicker } from "../../compose/RecipientPicker.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { channelsOf, readerOf, streamSettingsHash, useUserGroups } from "./data.js";
import { PrivacyFields } from "./PrivacyFields.js";
import "../../../styles/channels.css";

/**
 * `#channels/new`: create a stream (https://zulip.com/help/create-a-channel):
 * name, description, privacy, who can post, and the first subscribers (the
 * reader and the people chosen), in one `POST /users/me/subscriptions`
 * (https://zulip.com/api/subscribe). Choices the reader may not make are
 * disabled with the reason; the server's refusal is shown under the form.
 * On success the new stream's settings open.
 */
export function NewStream(props: SectionProps) {
  const { chat, state } = props;
  const id = useId();
  const groups = useUserGroups(chat);
  const reader = readerOf(state);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [privacy, setPrivacy] = useState<StreamPrivacy>("public");
  const [postPolicy, setPostPolicy] = useState(1);
  const [people, setPeople] = useState<number[]>([]);
  const [clientError, setClientError] = useState<string | null>(null);
  const realm = state.realmSettings;
  const refusal = (p: StreamPrivacy) => (groups ? createRefusal(p, reader, realm, groups) : reader.role >= 600 ? "Guests cannot create channels." : null);
  const inviteRefusal = subscribeOthersRefusal(reader, realm);
  // Once the groups are known, a choice the reader may not make is not left chosen.
  useEffect(() => {
    if (!groups || !refusal(privacy)) return;
    const allowed = (["public", "private-shared", "private-protected"] as const).find((p) => !refusal(p));
    if (allowed) setPrivacy(allowed);
  }, [groups]);
  const maxName = Number(realm.max_stream_name_length ?? 60);
  const maxDescription = Number(realm.max_stream_description_length ?? 1024);
  const candidates = [...state.users.values()]
    .filter((u) => u.is_active && u.user_id !== state.me.user_id)
    .map((u) => ({ user_id: u.user_id, full_name: u.full_name, email: u.email }));

  const create = useAction(async () => {
    const trimmed = name.trim();
    const principals = [state.me.user_id, ...people];
    await chat.api.call("POST", "/users/me/subscriptions", {
      subscriptions: [{ name: trimmed, description }],
      principals,
      invite_only: privacyParams(privacy).is_private,
      is_web_public: privacyParams(privacy).is_web_public,
      history_public_to_subscribers: privacyParams(privacy).history_public_to_subscribers,
      stream_post_policy: postPolicy,
    });
    const r = await chat.api.call<{ stream_id: number }>("GET", "/get_stream_id", { stream: trimmed });
    location.hash = streamSettingsHash(r.stream_id, trimmed);
  });

  const onSubmit = (e: Event) => {
    e.preventDefault();
    const trimmed = name.trim();
    const taken = [...channelsOf(state).streams.values()].some((s) => s.name.toLowerCase() === trimmed.toLowerCase());
    if (!trimmed) setClientError("Choose a name for the new channel.");
    else if (taken) setClientError("A channel with this name already exists.");
    else if (refusal(privacy)) setClientError(refusal(privacy));
    else {
      setClientError(null);
      void create.run();
    }
  };

  return (
    <form class="settings-form new-stream" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        Create a channel
      </h2>
      <div class="settings-row">
        <label for={`${id}-name`}>Channel name</label>
        <input id={`${id}-name`} type="text" required maxLength={maxName} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="settings-row">
        <label for={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          maxLength={maxDescription}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
      </div>
      <PrivacyFields value={privacy} onChange={setPrivacy} refusal={refusal} realm={realm} />
      <div class="settings-row">
        <label for={`${id}-post`}>Who can post to the channel</label>
        <select id={`${id}-post`} value={String(postPolicy)} onChange={(e) => setPostPolicy(Number(e.currentTarget.value))}>
          {POST_POLICIES.map((p) => (
            <option key={p.value} value={String(p.value)}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div class="settings-row">
        {inviteRefusal ? (
          <p class="settings-note">{inviteRefusal} You will be the only subscriber.</p>
        ) : (
          <>
            <RecipientPicker people={candidates} selected={people} onChange={setPeople} label="Add subscribers" listLabel="Chosen subscribers" />
            <p class="settings-note">You are subscribed too.</p>
          </>
        )}
      </div>
      <ErrorNote error={clientError ?? create.error} />
      <div class="form-actions">
        <button type="submit" class="button-primary" disabled={create.pending}>
          Create
        </button>
        <a href="#channels/subscribed">Cancel</a>
      </div>
    </form>
  );
}
