import { useEffect, useState } from "preact/hooks";
import { isAdministrator } from "../../../model/roles.js";
import type { WireUser } from "../../../model/types.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { errorText } from "../../ui/useAction.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ActionButton } from "./UserActions.js";
import type { SectionProps } from "../types.js";

/**
 * `#organization/deactivated` (https://zulip.com/help/deactivate-or-reactivate-a-user):
 * the deactivated users and bots from `GET /users`, fetched again whenever the
 * active users change; administrators reactivate (`POST /users/{id}/reactivate`).
 */
export function DeactivatedUsers(props: SectionProps) {
  const [list, setList] = useState<WireUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = isAdministrator(props.state);
  useEffect(() => {
    let live = true;
    props.chat.api.call<{ members: WireUser[] }>("GET", "/users").then(
      (r) => live && setList(r.members.filter((u) => !u.is_active).sort((a, b) => a.full_name.localeCompare(b.full_name))),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [props.state.users]);
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Deactivated users</h2>
      {!admin && <ReadOnlyNote />}
      <ErrorNote error={error} />
      {list === null ? (
        !error && <p aria-busy="true">Loading…</p>
      ) : list.length === 0 ? (
        <p>There are no deactivated users.</p>
      ) : (
        <table aria-label="Deactivated users">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((u) => (
              <tr key={u.user_id}>
                <td>
                  {u.full_name}
                  {u.is_bot ? " (bot)" : ""}
                </td>
                <td>{u.delivery_email ?? u.email}</td>
                <td>
                  {admin && (
                    <ActionButton
                      label={`Reactivate ${u.full_name}`}
                      text="Reactivate"
                      act={async () => {
                        await props.chat.api.call("POST", `/users/${u.user_id}/reactivate`);
                        setList((l) => l?.filter((x) => x.user_id !== u.user_id) ?? null);
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
