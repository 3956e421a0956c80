import { useId, useMemo, useRef, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import {
  canCreateMultiuseInvite,
  canInviteByEmail,
  DEFAULT_EXPIRY_MINUTES,
  defaultStreamIds,
  EXPIRY_CHOICES,
  invitableRoles,
  invitedAddresses,
  inviteFailure,
  inviterOf,
  inviteParams,
  inviteStreams,
  MAX_INVITEES,
  parseInviteeEmails,
  type InviteFailure,
} from "../../model/invites.js";
import { myRole, ROLE } from "../../model/roles.js";
import { subscribeOthersRefusal } from "../../model/channel-permissions.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { errorText } from "../ui/useAction.js";
import { InviteTabs, type InviteMode } from "./InviteTabs.js";
import { StreamChoices } from "./StreamChoices.js";
import "./invite.css";

/** The "Users join as" choices, worded as Zulip's. */
const JOIN_AS: Record<number, string> = {
  [ROLE.owner]: "Organization owners",
  [ROLE.administrator]: "Organization administrators",
  [ROLE.moderator]: "Organization moderators",
  [ROLE.member]: "Members",
  [ROLE.guest]: "Guests",
};

/** What the last email invitation did: who was invited, who was skipped and why. */
type EmailOutcome = { invited: string[]; failure: InviteFailure | null };

/**
 * "Invite users to organization" (https://zulip.com/help/invite-new-users):
 * two modes, each shown only to those the organization allows.
 * - "Invite by email" (`realm_invite_to_realm_policy`): addresses one per
 *   line or comma-separated, "Invitation expires after", "Users join as",
 *   the channels to subscribe them to and "Notify me when they join" →
 *   `POST /invites`. A partial failure (`INVITATION_FAILED`) lists each
 *   skipped address with the server's reason and who was invited.
 * - "Invitation link" (`realm_create_multiuse_invite_group`): the same
 *   choices → `POST /invites/multiuse`, then the link with "Copy link".
 * The server's message for any refusal shows in the dialog.
 */
export function InviteDialog(props: { chat: Chat; state: ChatState; onClose(): void }) {
  const { state } = props;
  const byEmail = canInviteByEmail(state);
  const byLink = canCreateMultiuseInvite(state);
  const [mode, setMode] = useState<InviteMode>(byEmail ? "email" : "link");
  const roles = invitableRoles(myRole(state));
  const streams = useMemo(() => inviteStreams(state), [state.subscriptions, state.streams, state.realmSettings]);
  const defaults = useMemo(() => defaultStreamIds(state), [state.realmSettings]);
  const streamRefusal = subscribeOthersRefusal(inviterOf(state), state.realmSettings);

  const [emails, setEmails] = useState("");
  const [expires, setExpires] = useState<number | null>(DEFAULT_EXPIRY_MINUTES);
  const [inviteAs, setInviteAs] = useState<number>(ROLE.member);
  const [includeDefaults, setIncludeDefaults] = useState(true);
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(defaults));
  const [notify, setNotify] = useState(true);
  const [pending, setPendingState] = useState(false);
  // A second submit while one is on its way is ignored (the button stays focusable: disabling it would drop the focus).
  const busy = useRef(false);
  const setPending = (on: boolean) => {
    busy.current = on;
    setPendingState(on);
  };
  const [outcome, setOutcome] = useState<EmailOutcome | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const ids = { emails: useId(), expires: useId(), role: useId(), notify: useId(), hint: useId(), link: useId(), result: useId() };

  if (!byEmail && !byLink) {
    return (
      <Dialog title="Invite users to organization" onClose={props.onClose} class="invite-dialog">
        <p class="dialog-body">You do not have permission to invite users to this organization. Ask an organization administrator.</p>
      </Dialog>
    );
  }

  const choices = () => ({
    expiresInMinutes: expires,
    inviteAs,
    // Without the right to subscribe others, the server takes no channels (the defaults still apply).
    streamIds: streamRefusal ? [] : [...chosen],
    includeDefaults,
  });

  const sendEmails = async () => {
    const addresses = parseInviteeEmails(emails);
    if (addresses.length === 0) {
      setOutcome({ invited: [], failure: { message: "You must specify at least one email address.", skipped: [], sentInvitations: false } });
      return;
    }
    if (addresses.length > MAX_INVITEES) {
      setOutcome({ invited: [], failure: { message: `You can invite at most ${MAX_INVITEES} people at a time.`, skipped: [], sentInvitations: false } });
      return;
    }
    setPending(true);
    setOutcome(null);
    try {
      await props.chat.api.call("POST", "/invites", {
        invitee_emails: addresses.join(","),
        ...inviteParams(choices(), defaults),
        notify_referrer_on_join: notify,
      });
      setOutcome({ invited: addresses, failure: null });
      setEmails("");
    } catch (err) {
      const failure = inviteFailure(err, errorText(err));
      setOutcome({ invited: failure.sentInvitations ? invitedAddresses(addresses, failure.skipped) : [], failure });
      // Keep only the addresses that still need attention in the box.
      if (failure.sentInvitations) setEmails(failure.skipped.map((s) => s.email).join("\n"));
    } finally {
      setPending(false);
    }
  };

  const createLink = async () => {
    setPending(true);
    setLinkError(null);
    setCopied(null);
    try {
      const r = await props.chat.api.call<{ invite_link: string }>("POST", "/invites/multiuse", inviteParams(choices(), defaults));
      setLink(r.invite_link);
    } catch (err) {
      setLinkError(errorText(err));
    } finally {
      setPending(false);
    }
  };

  const copy = () =>
    navigator.clipboard.writeText(link ?? "").then(
      () => setCopied("Link copied."),
      () => setCopied("Could not copy: select the link and copy it."),
    );

  return (
    <Dialog title="Invite users to organization" onClose={props.onClose} class="invite-dialog">
      <form
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          if (busy.current) return;
          void (mode === "email" ? sendEmails() : createLink());
        }}
      >
        {byEmail && byLink && (
          <InviteTabs
            mode={mode}
            onChange={(m) => {
              setMode(m);
              setOutcome(null);
              setLinkError(null);
            }}
          />
        )}
        {mode === "email" && (
          <>
            <div class="form-field">
              <label for={ids.emails}>Emails (one on each line or comma-separated)</label>
              <textarea
                id={ids.emails}
                rows={4}
                value={emails}
                maxLength={20_000}
                placeholder="one@example.com, two@example.com"
                onInput={(e) => setEmails((e.target as HTMLTextAreaElement).value)}
              />
            </div>
            <div class="form-check">
              <input id={ids.notify} type="checkbox" checked={notify} onChange={(e) => setNotify((e.target as HTMLInputElement).checked)} />
              <label for={ids.notify}>Notify me when they join</label>
            </div>
          </>
        )}
        <div class="invite-row">
          <div class="form-field">
            <label for={ids.expires}>Invitation expires after</label>
            <select
              id={ids.expires}
              value={expires === null ? "never" : String(expires)}
              onChange={(e) => {
                const v = (e.target as HTMLSelectElement).value;
                setExpires(v === "never" ? null : Number(v));
              }}
            >
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.label} value={c.minutes === null ? "never" : String(c.minutes)}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <div class="form-field">
            <label for={ids.role}>Users join as</label>
            <select id={ids.role} value={String(inviteAs)} onChange={(e) => setInviteAs(Number((e.target as HTMLSelectElement).value))}>
              {roles.map((r) => (
                <option key={r} value={String(r)}>
                  {JOIN_AS[r]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <StreamChoices
          streams={streams}
          chosen={chosen}
          includeDefaults={includeDefaults}
          refusal={streamRefusal}
          onIncludeDefaults={setIncludeDefaults}
          onToggle={(id, on) => {
            const next = new Set(chosen);
            if (on) next.add(id);
            else next.delete(id);
            setChosen(next);
          }}
        />
        {mode === "email" && outcome && <EmailResult outcome={outcome} />}
        {mode === "link" && (
          <>
            <ErrorNote error={linkError} />
            {link && (
              <div class="invite-link">
                <label for={ids.link}>Invitation link</label>
                <div class="invite-link-row">
                  <input id={ids.link} type="text" readOnly value={link} onFocus={(e) => (e.target as HTMLInputElement).select()} />
                  <button type="button" onClick={() => void copy()}>
                    Copy link
                  </button>
                </div>
                <p role="status" class="field-hint">
                  {copied}
                </p>
              </div>
            )}
          </>
        )}
        <footer class="dialog-footer">
          <button type="button" onClick={props.onClose}>
            Close
          </button>
          <button type="submit" class="button-primary" aria-disabled={pending}>
            {mode === "email" ? "Invite" : link ? "Create another link" : "Create link"}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

/** The result of "Invite": the addresses invited, then each skipped one with the server's reason. */
function EmailResult(props: { outcome: EmailOutcome }) {
  const { invited, failure } = props.outcome;
  return (
    <div class="invite-result">
      {invited.length > 0 && (
        <div role="status">
          <p class="invite-success">{invited.length === 1 ? "Invitation sent to:" : `Invitations sent to ${invited.length} people:`}</p>
          <ul aria-label="Invited">
            {invited.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {failure && (
        <div role="alert" class="invite-failure">
          <p class="error-note">{failure.message}</p>
          {failure.skipped.length > 0 && (
            <ul aria-label="Not invited">
              {failure.skipped.map((s) => (
                <li key={s.email}>
                  <strong>{s.email}</strong>: {s.reason}
                  {s.deactivated ? " (a deactivated account: an administrator can reactivate it)" : ""}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
