import { useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ChatState } from "../../../model/store.js";
import type { StreamWireObject, SubscriptionWireObject } from "../../../model/types.js";
import { removeSubscribersRefusal, subscribeOthersRefusal } from "../../../model/channel-permissions.js";
import { isAdministrator } from "../../../model/roles.js";
import { RecipientPicker } from "../../compose/RecipientPicker.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { channelsOf, readerOf, useSubscriberLists } from "./data.js";
import { subscriberRows } from "../../../model/channels.js";


/**
 * The Subscribers tab of a stream's settings (https://zulip.com/help/manage-user-channel-subscriptions):
 * the subscribers with a search box, a picker to add people
 * (`POST /users/me/subscriptions` with `principals`) and a "Remove" button on
 * each (`DELETE /users/me/subscriptions` with `principals`). Adding is for
 * those the organization's `invite_to_stream_policy` allows, removing others
 * for organization and channel administrators (anyone may remove themselves);
 * otherwise the reason is shown. The list follows `peer_add`/`peer_remove`.
 */
export function SubscribersTab(props: { chat: Chat; state: ChatState; stream: StreamWireObject; sub: SubscriptionWireObject | undefined }) {
  const { chat, state, stream, sub } = props;
  const [query, setQuery] = useState("");
  const [adding, setAdding] = useState<number[]>([]);
  const reader = readerOf(state);
  useSubscriberLists(chat, state, [stream.stream_id]);
  const list = channelsOf(state).subscribers.get(stream.stream_id);
  const addRefusal = subscribeOthersRefusal(reader, state.realmSettings);
  const removeRefusal = removeSubscribersRefusal(reader, sub);

  const add = useAction(async () => {
    await chat.api.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: stream.name }], principals: adding });
    setAdding([]);
  });
  const remove = useAction((userId: number) =>
    chat.api.call("DELETE", "/users/me/subscriptions", { subscriptions: [stream.name], principals: [userId] }),
  );

  if (!list) {
    const hidden = stream.invite_only && !sub && !isAdministrator(state);
    return <p class="settings-note">{hidden ? "Only subscribers of this private channel can see who is subscribed." : "Loading subscribers…"}</p>;
  }
  const rows = subscriberRows(state.users, list, query);
  const candidates = [...state.users.values()]
    .filter((u) => u.is_active && !list.has(u.user_id))
    .map((u) => ({ user_id: u.user_id, full_name: u.full_name, email: u.email }));

  return (
    <div class="stream-subscribers">
      <form
        class="settings-form"
        aria-label="Add subscribers"
        onSubmit={(e) => {
          e.preventDefault();
          if (adding.length > 0) void add.run();
        }}
      >
        {addRefusal ? (
          <p class="settings-note refusal-reason">{addRefusal}</p>
        ) : (
          <>
            <RecipientPicker people={candidates} selected={adding} onChange={setAdding} label="Add subscribers" listLabel="People to add" />
            <ErrorNote error={add.error} />
            <div class="form-actions">
              <button type="submit" class="button-primary" disabled={add.pending || adding.length === 0}>
                Add
              </button>
            </div>
          </>
        )}
      </form>
      <h3>
        {list.size} {list.size === 1 ? "subscriber" : "subscribers"}
      </h3>
      <input
        type="search"
        class="stream-filter"
        aria-label="Search subscribers"
        placeholder="Search subscribers"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
      />
      {removeRefusal && <p class="settings-note">{removeRefusal}</p>}
      <ErrorNote error={remove.error} />
      <table>
        <caption class="visually-hidden">Subscribers of {stream.name}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <tr key={u.user_id}>
              <td>{u.full_name}</td>
              <td>{u.email}</td>
              <td>
                {(removeRefusal === null || u.user_id === state.me.user_id) && (
                  <button type="button" aria-label={`Remove ${u.full_name}`} disabled={remove.pending} onClick={() => void remove.run(u.user_id)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="stream-empty">{query ? "No subscribers match your search." : "This channel has no subscribers."}</p>}
    </div>
  );
}
