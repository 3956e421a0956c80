import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import type { SectionProps } from "../types.js";

/**
 * "Muted users" (`#settings/muted-users`, https://zulip.com/help/mute-a-user):
 * the people the reader muted (register's `muted_users`, kept by
 * `muted_users` events), newest first, each with "Unmute"
 * (`DELETE /users/me/muted_users/{id}`).
 */
export function MutedUsersSection({ chat, state }: SectionProps) {
  const unmute = useAction((id: number) => chat.api.call("DELETE", `/users/me/muted_users/${id}`));
  const muted = [...state.people.muted].map(([id, timestamp]) => ({ id, timestamp })).sort((a, b) => b.timestamp - a.timestamp);
  const name = (id: number) => state.users.get(id)?.full_name ?? `User ${id}`;
  return (
    <div>
      <h2 tabIndex={-1}>Muted users</h2>
      {muted.length === 0 ? (
        <p>You have not muted anyone.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Muted users</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Date muted</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {muted.map((m) => (
              <tr key={m.id}>
                <td>{name(m.id)}</td>
                <td>{new Date(m.timestamp * 1000).toLocaleDateString()}</td>
                <td>
                  <button type="button" aria-label={`Unmute ${name(m.id)}`} disabled={unmute.pending} onClick={() => void unmute.run(m.id)}>
                    Unmute
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorNote error={unmute.error} />
    </div>
  );
}
