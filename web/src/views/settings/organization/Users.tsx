import { myRole, ROLE_NAMES } from "../../../model/roles.js";
import type { WireUser } from "../../../model/types.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import { isAdministrator } from "../../../model/roles.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ConfirmedAction } from "./UserActions.js";
import { assignableRoles, canManageUser } from "./users-logic.js";
import type { SectionProps } from "../types.js";

/** One user's role: a select for those who may change it (`PATCH /users/{id}` with `role`), else the role's name. */
function RoleCell(props: SectionProps & { user: WireUser }) {
  const { user } = props;
  const reader = myRole(props.state);
  const action = useAction(async (role: number) => props.chat.api.call("PATCH", `/users/${user.user_id}`, { role }));
  if (!canManageUser(reader, user.role)) return <>{ROLE_NAMES[user.role as keyof typeof ROLE_NAMES] ?? user.role}</>;
  const choices = assignableRoles(reader);
  return (
    <>
      <select
        aria-label={`Role of ${user.full_name}`}
        value={String(user.role)}
        disabled={action.pending}
        onChange={(e) => {
          const select = e.currentTarget;
          void action.run(Number(select.value)).then((ok) => {
            // A refused change goes back to the role the user still has.
            if (!ok) select.value = String(user.role);
          });
        }}
      >
        {choices.map(([r, name]) => (
          <option key={r} value={String(r)}>
            {name}
          </option>
        ))}
      </select>
      <ErrorNote error={action.error} />
    </>
  );
}

/**
 * `#organization/users` (https://zulip.com/help/manage-a-user): the active
 * users with email and role; administrators change roles and deactivate
 * (`DELETE /users/{id}`, after a confirmation). Kept live by `realm_user` events.
 */
export function Users(props: SectionProps) {
  const reader = myRole(props.state);
  const users = [...props.state.users.values()].filter((u) => !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Users</h2>
      {!isAdministrator(props.state) && <ReadOnlyNote />}
      <table aria-label="Active users">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.user_id}>
              <td>{u.full_name}</td>
              <td>{u.delivery_email ?? u.email}</td>
              <td>
                <RoleCell {...props} user={u} />
              </td>
              <td>
                {canManageUser(reader, u.role) && u.user_id !== props.state.me.user_id && (
                  <ConfirmedAction
                    label={`Deactivate ${u.full_name}`}
                    buttonText="Deactivate"
                    title={`Deactivate ${u.full_name}?`}
                    question={`${u.full_name} will be logged out and will no longer be able to use this organization. Their messages stay.`}
                    confirmLabel="Deactivate"
                    act={() => props.chat.api.call("DELETE", `/users/${u.user_id}`)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
