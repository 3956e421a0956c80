import { isAdministrator } from "../../../model/roles.js";
import { ReadOnlyNote } from "./SettingsForm.js";
import { ConfirmedAction } from "./UserActions.js";
import type { SectionProps } from "../types.js";

/**
 * `#organization/bots` (https://zulip.com/help/manage-a-bot): every active bot
 * of the organization with its owner; administrators deactivate one
 * (`DELETE /bots/{id}`, after a confirmation). Kept live by `realm_user` events.
 */
export function Bots(props: SectionProps) {
  const admin = isAdministrator(props.state);
  const bots = [...props.state.users.values()].filter((u) => u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Bots</h2>
      {!admin && <ReadOnlyNote />}
      {bots.length === 0 ? (
        <p>There are no bots.</p>
      ) : (
        <table aria-label="Bots">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Owner</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {bots.map((b) => (
              <tr key={b.user_id}>
                <td>{b.full_name}</td>
                <td>{b.email}</td>
                <td>{(b.bot_owner_id && props.state.users.get(b.bot_owner_id)?.full_name) || "—"}</td>
                <td>
                  {admin && (
                    <ConfirmedAction
                      label={`Deactivate ${b.full_name}`}
                      buttonText="Deactivate"
                      title={`Deactivate ${b.full_name}?`}
                      question={`${b.full_name} will stop working until it is reactivated.`}
                      confirmLabel="Deactivate"
                      act={() => props.chat.api.call("DELETE", `/bots/${b.user_id}`)}
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
