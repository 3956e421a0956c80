import { useId, useState } from "preact/hooks";
import { myRole } from "../../../model/roles.js";
import type { ChatState } from "../../../model/store.js";
import { userGroupList, type UserGroup } from "../../../model/user-groups.js";
import { Dialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ActionButton, ConfirmedAction } from "./UserActions.js";
import { policyAllows } from "./users-logic.js";
import type { SectionProps } from "../types.js";

/** Whether the reader may create and manage user groups (`realm_user_group_edit_policy`). */
function canEditGroups(state: ChatState): boolean {
  const me = state.users.get(state.me.user_id);
  const r = state.realmSettings;
  return policyAllows(Number(r.realm_user_group_edit_policy ?? 1), { role: myRole(state), date_joined: me?.date_joined }, Number(r.realm_waiting_period_threshold ?? 0), Date.now());
}

/** The names of user IDs, sorted. */
function people(state: ChatState, ids: readonly number[]): { id: number; name: string }[] {
  return ids.map((id) => ({ id, name: state.users.get(id)?.full_name ?? `User ${id}` })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Name and description fields of a group (new or edited). */
function NameFields(props: { name: string; description: string; set(name: string, description: string): void }) {
  const nameId = useId();
  const descId = useId();
  return (
    <>
      <div class="settings-row">
        <label for={nameId}>Group name</label>
        <input id={nameId} value={props.name} maxLength={100} required onInput={(e) => props.set(e.currentTarget.value, props.description)} />
      </div>
      <div class="settings-row">
        <label for={descId}>Description</label>
        <input id={descId} value={props.description} onInput={(e) => props.set(props.name, e.currentTarget.value)} />
      </div>
    </>
  );
}

/** A group's name, description and members, edited in a dialog (`PATCH /user_groups/{id}`, `POST …/members` with `add` or `delete`). */
function GroupEditor(props: SectionProps & { group: UserGroup; onClose(): void }) {
  const { group, state } = props;
  const api = props.chat.api;
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const [adding, setAdding] = useState("");
  const addId = useId();
  const rename = useAction(async () => {
    const params: Record<string, string> = {};
    if (name !== group.name) params.name = name;
    if (description !== group.description) params.description = description;
    if (Object.keys(params).length > 0) await api.call("PATCH", `/user_groups/${group.id}`, params);
  });
  const add = useAction(async () => {
    if (adding) await api.call("POST", `/user_groups/${group.id}/members`, { add: [Number(adding)] });
    setAdding("");
  });
  const candidates = [...state.users.values()].filter((u) => !u.is_bot && !group.members.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Dialog title={`Edit ${group.name}`} onClose={props.onClose}>
      <form
        class="settings-form"
        aria-label="Group name and description"
        onSubmit={(e) => {
          e.preventDefault();
          void rename.run();
        }}
      >
        <NameFields name={name} description={description} set={(n, d) => (setName(n), setDescription(d))} />
        <div class="org-actions">
          <button type="submit" class="button-primary" disabled={rename.pending}>
            Save changes
          </button>
        </div>
        <ErrorNote error={rename.error} />
      </form>
      <h3>Members</h3>
      <ul class="org-member-list" aria-label={`Members of ${group.name}`}>
        {people(state, group.members).map((p) => (
          <li key={p.id}>
            {p.name}{" "}
            <ActionButton label={`Remove ${p.name}`} text="Remove" act={() => api.call("POST", `/user_groups/${group.id}/members`, { delete: [p.id] })} />
          </li>
        ))}
      </ul>
      <form
        class="org-inline-form"
        aria-label="Add a member"
        onSubmit={(e) => {
          e.preventDefault();
          void add.run();
        }}
      >
        <label for={addId}>Person to add</label>
        <select id={addId} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
          <option value="">Choose a person</option>
          {candidates.map((u) => (
            <option key={u.user_id} value={String(u.user_id)}>
              {u.full_name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!adding || add.pending}>
          Add member
        </button>
        <ErrorNote error={add.error} />
      </form>
    </Dialog>
  );
}

/** The form that creates a group (`POST /user_groups/create`) with its first members. */
function NewGroup(props: SectionProps) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [members, setMembers] = useState<number[]>([]);
  const membersId = useId();
  const create = useAction(async () => {
    await props.chat.api.call("POST", "/user_groups/create", { name, description, members });
    setName("");
    setDescription("");
    setMembers([]);
  });
  const users = [...props.state.users.values()].filter((u) => !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <form
      class="settings-form"
      aria-label="Create user group"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <h3>Create user group</h3>
      <NameFields name={name} description={description} set={(n, d) => (setName(n), setDescription(d))} />
      <div class="settings-row">
        <label for={membersId}>Members</label>
        <select
          id={membersId}
          multiple
          size={5}
          onChange={(e) => setMembers([...e.currentTarget.selectedOptions].map((o) => Number(o.value)))}
        >
          {users.map((u) => (
            <option key={u.user_id} value={String(u.user_id)} selected={members.includes(u.user_id)}>
              {u.full_name}
            </option>
          ))}
        </select>
      </div>
      <div class="org-actions">
        <button type="submit" class="button-primary" disabled={create.pending}>
          Create
        </button>
      </div>
      <ErrorNote error={create.error} />
    </form>
  );
}

/**
 * `#organization/user-groups` (https://zulip.com/help/user-groups): the
 * organization's groups with description and members; those the
 * organization lets manage groups create, rename, describe, delete and change
 * members. Kept live by `user_group` events.
 */
export function UserGroups(props: SectionProps) {
  const groups = userGroupList(props.state.userGroups).filter((g) => !g.is_system_group);
  const [editing, setEditing] = useState<number | null>(null);
  const editable = canEditGroups(props.state);
  const open = groups.find((g) => g.id === editing);
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>User groups</h2>
      {!editable && <ReadOnlyNote />}
      {groups.length === 0 ? (
        <p>There are no user groups.</p>
      ) : (
        <table aria-label="User groups">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Members</th>
              {editable && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.id}>
                <td>{g.name}</td>
                <td>{g.description}</td>
                <td>{people(props.state, g.members).map((p) => p.name).join(", ")}</td>
                {editable && (
                  <td class="org-actions">
                    <button type="button" aria-label={`Edit ${g.name}`} onClick={() => setEditing(g.id)}>
                      Edit
                    </button>
                    <ConfirmedAction
                      label={`Delete ${g.name}`}
                      buttonText="Delete"
                      title={`Delete ${g.name}?`}
                      question="The group is deleted; its members stay in the organization."
                      confirmLabel="Delete"
                      act={() => props.chat.api.call("DELETE", `/user_groups/${g.id}`)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <GroupEditor {...props} group={open} onClose={() => setEditing(null)} />}
      {editable && <NewGroup {...props} />}
    </div>
  );
}
