import { useEffect, useState } from "preact/hooks";
import { invitePath, mayManageInvite, sortInvites, type Invite } from "../../../model/invites.js";
import { isAdministrator, ROLE_NAMES } from "../../../model/roles.js";
import type { ServerEvent } from "../../../model/types.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { errorText } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";
import { ActionButton, ConfirmedAction } from "./UserActions.js";

/** A time of the table (UNIX seconds) in the reader's locale. */
function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Whether a batch of events changed the set of invitations. */
export function invitesChanged(events: readonly ServerEvent[]): boolean {
  return events.some((e) => e.type === "invites_changed");
}

/**
 * `#organization/invites-list-admin` (https://zulip.com/help/invite-new-users#manage-pending-invitations):
 * the pending invitations `GET /invites` answers (administrators see every
 * one, others their own): the address or "Reusable link", who invited, when,
 * when it expires and the role; "Resend" for email invitations
 * (`POST /invites/{id}/resend`) and "Revoke" after a confirmation
 * (`DELETE /invites/{id}` or `/invites/multiuse/{id}`). Fetched again on
 * every `invites_changed` event, so another administrator's changes show live.
 */
export function Invitations(props: SectionProps) {
  const { state } = props;
  const api = props.chat.api;
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let on = true;
    // Answers may come back out of order: only the latest request's answer is kept.
    let seq = 0;
    const load = () => {
      const mine = ++seq;
      api.call<{ invites: Invite[] }>("GET", "/invites").then(
        (r) => {
          if (!on || mine !== seq) return;
          setInvites(r.invites);
          setError(null);
        },
        (e) => on && mine === seq && setError(errorText(e)),
      );
    };
    load();
    const off = props.chat.onEvents((events) => {
      if (invitesChanged(events)) load();
    });
    return () => {
      on = false;
      off();
    };
  }, [api]);

  const list = invites ? sortInvites(invites) : [];
  const name = (id: number) => state.users.get(id)?.full_name ?? "Unknown";
  const label = (i: Invite) => (i.is_multiuse ? `reusable link ${i.id}` : (i.email ?? `invitation ${i.id}`));
  // Changes come back through invites_changed; the table also drops a revoked row at once.
  const drop = (i: Invite) => setInvites((old) => old?.filter((x) => !(x.id === i.id && x.is_multiuse === i.is_multiuse)) ?? old);

  return (
    <div class="org-section">
      <h2 tabIndex={-1}>Invitations</h2>
      <p>
        {isAdministrator(state)
          ? "Pending invitations to this organization: email invitations that have not been accepted and reusable links that have not expired."
          : "Your pending invitations: email invitations that have not been accepted and reusable links that have not expired."}
      </p>
      <ErrorNote error={error} />
      <p role="status" class="field-hint">
        {notice}
      </p>
      {invites === null ? (
        !error && <p aria-busy="true">Loading…</p>
      ) : list.length === 0 ? (
        <p>There are no pending invitations.</p>
      ) : (
        <div class="org-invites">
          <table aria-label="Pending invitations">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Invited by</th>
                <th scope="col">Sent</th>
                <th scope="col">Expires</th>
                <th scope="col">Role</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((i) => {
                const manage = mayManageInvite(state, i);
                return (
                  <tr key={`${i.is_multiuse ? "m" : "e"}${i.id}`}>
                    <td>{i.is_multiuse ? <span title={i.link_url}>Reusable link</span> : i.email}</td>
                    <td>{name(i.invited_by_user_id)}</td>
                    <td>{when(i.invited)}</td>
                    <td>{i.expiry_date === null ? "Never" : when(i.expiry_date)}</td>
                    <td>{ROLE_NAMES[i.invited_as as keyof typeof ROLE_NAMES] ?? "Unknown"}</td>
                    <td>
                      <div class="org-invite-actions">
                        {!i.is_multiuse && (
                          <ActionButton
                            label={`Resend invitation to ${label(i)}`}
                            text="Resend"
                            disabled={!manage}
                            act={async () => {
                              setNotice(null);
                              await api.call("POST", `/invites/${i.id}/resend`);
                              setNotice(`Invitation sent again to ${label(i)}.`);
                            }}
                          />
                        )}
                        <ConfirmedAction
                          label={`Revoke invitation to ${label(i)}`}
                          buttonText="Revoke"
                          title="Revoke invitation"
                          question={
                            i.is_multiuse
                              ? "Revoke this reusable invitation link? Nobody will be able to join with it."
                              : `Revoke the invitation to ${i.email}? The link in their email will stop working.`
                          }
                          confirmLabel="Revoke"
                          disabled={!manage}
                          act={async () => {
                            await api.call("DELETE", invitePath(i));
                            drop(i);
                          }}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
