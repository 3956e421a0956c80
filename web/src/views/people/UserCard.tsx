import { format } from "date-fns";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { dmHash, encodeHash } from "../../model/narrow.js";
import { localTime, profileFieldText, visibleEmail } from "../../model/people.js";
import { ROLE_NAMES } from "../../model/roles.js";
import type { WireUser } from "../../model/types.js";
import { Dialog } from "../ui/Dialog.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { useDismiss } from "../ui/Popover.js";
import { useAction } from "../ui/useAction.js";
import { StatusEmoji } from "./StatusEmoji.js";

/** A person's picture on the card; their initial on a tinted square when there is none or it fails to load. */
function CardAvatar(props: { user: WireUser }) {
  const [failed, setFailed] = useState(false);
  const { user } = props;
  if (user.avatar_url && !failed) {
    return <img class="user-card-avatar" src={user.avatar_url} alt="" width={64} height={64} onError={() => setFailed(true)} />;
  }
  return (
    <span class={`user-card-avatar avatar-initial tint-${user.user_id % 6}`} aria-hidden="true">
      {user.full_name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

/** The role line of a card: "Bot", or the organization role's name. */
function roleName(user: WireUser): string {
  return user.is_bot ? "Bot" : (ROLE_NAMES[user.role] ?? "Member");
}

/** The custom profile fields with a value, as label and text (all of them, or only those shown in the summary). */
function fieldRows(state: ChatState, user: WireUser, summaryOnly: boolean): { id: number; name: string; text: string; link: boolean }[] {
  const rows: { id: number; name: string; text: string; link: boolean }[] = [];
  for (const f of state.people.profileFields) {
    if (summaryOnly && !f.display_in_profile_summary) continue;
    const text = profileFieldText(f, user.profile_data?.[String(f.id)]?.value, (id) => state.users.get(id)?.full_name);
    if (text !== undefined) rows.push({ id: f.id, name: f.name, text, link: f.type === 5 });
  }
  return rows;
}

/** The facts of a card and the full profile: email, role, status, local time, fields. */
function Facts(props: { state: ChatState; user: WireUser; summaryOnly: boolean }) {
  const { state, user } = props;
  const email = visibleEmail(user);
  const time = localTime(user.timezone, Date.now(), state.settings.twenty_four_hour_time);
  return (
    <dl class="user-facts">
      {email && (
        <>
          <dt>Email</dt>
          <dd>{email}</dd>
        </>
      )}
      <dt>Role</dt>
      <dd>{roleName(user)}</dd>
      {state.people.statuses.has(user.user_id) && (
        <>
          <dt>Status</dt>
          <dd>
            <StatusEmoji state={state} userId={user.user_id} withText />
          </dd>
        </>
      )}
      {time && (
        <>
          <dt>Local time</dt>
          <dd>{time}</dd>
        </>
      )}
      {!props.summaryOnly && (
        <>
          <dt>Joined</dt>
          <dd>{format(new Date(user.date_joined), "MMMM d, yyyy")}</dd>
        </>
      )}
      {fieldRows(state, user, props.summaryOnly).map((r) => (
        <>
          <dt key={`n${r.id}`}>{r.name}</dt>
          <dd key={`v${r.id}`}>
            {r.link ? (
              <a href={r.text} target="_blank" rel="noopener noreferrer">
                {r.text}
              </a>
            ) : (
              r.text
            )}
          </dd>
        </>
      ))}
    </dl>
  );
}

/**
 * A person's card (https://zulip.com/help/view-someone-s-profile), a popover
 * beside the name or avatar clicked (`anchor`): picture, name with status,
 * email where the organization shows it, role, status, local time and the
 * profile fields shown in the summary; "Send direct message", "View messages
 * sent", "Mute user"/"Unmute user" (https://zulip.com/help/mute-a-user; the
 * server's refusal shown in the card) and "View full profile". Esc or a click
 * elsewhere closes it.
 */
export function UserCard(props: { chat: Chat; state: ChatState; userId: number; anchor: HTMLElement; onClose(): void; onFullProfile(): void }) {
  const { chat, state, userId } = props;
  const ref = useRef<HTMLDivElement>(null);
  const anchorRef = useRef<HTMLElement>(props.anchor);
  anchorRef.current = props.anchor;
  useDismiss(true, ref, props.onClose, anchorRef);
  const [pos, setPos] = useState<{ top: number; left: number }>({ top: 0, left: 0 });
  useLayoutEffect(() => {
    const r = props.anchor.getBoundingClientRect();
    const h = ref.current?.offsetHeight ?? 320;
    const w = ref.current?.offsetWidth ?? 300;
    setPos({ top: Math.max(8, Math.min(r.bottom + 4, window.innerHeight - h - 8)), left: Math.max(8, Math.min(r.left, window.innerWidth - w - 8)) });
    ref.current?.querySelector<HTMLElement>("button, a")?.focus();
  }, [props.anchor]);
  const muted = state.people.muted.has(userId);
  const mute = useAction(() => chat.api.call(muted ? "DELETE" : "POST", `/users/me/muted_users/${userId}`));
  const user = state.users.get(userId);
  if (!user) return null;
  const me = userId === state.me.user_id;
  const names = { streamName: (id: number) => state.streams.get(id)?.name, userName: (id: number) => state.users.get(id)?.full_name };
  const go = (hash: string) => {
    location.hash = hash;
    props.onClose();
  };
  return (
    <div ref={ref} class="user-card popover" role="dialog" aria-label={`User card: ${user.full_name}`} style={{ top: `${pos.top}px`, left: `${pos.left}px` }}>
      <header class="user-card-header">
        <CardAvatar user={user} />
        <h2 class="user-card-name">
          {user.full_name} <StatusEmoji state={state} userId={userId} />
        </h2>
      </header>
      <Facts state={state} user={user} summaryOnly />
      <ErrorNote error={mute.error} />
      <div class="user-card-actions">
        <button type="button" onClick={() => go(dmHash([userId], names.userName))}>
          {me ? "View messages with yourself" : "Send direct message"}
        </button>
        <button type="button" onClick={() => go(encodeHash({ kind: "narrow", terms: [{ operator: "sender", operand: userId }] }, names))}>
          View messages sent
        </button>
        {!me && !user.is_bot && (
          <button type="button" disabled={mute.pending} onClick={async () => (await mute.run()) && props.onClose()}>
            {muted ? "Unmute user" : "Mute user"}
          </button>
        )}
        <button type="button" onClick={props.onFullProfile}>
          View full profile
        </button>
      </div>
    </div>
  );
}

/** A person's full profile (https://zulip.com/help/view-someone-s-profile): every fact and every profile field with a value. */
export function ProfileDialog(props: { state: ChatState; userId: number; onClose(): void }) {
  const user = props.state.users.get(props.userId);
  if (!user) return null;
  return (
    <Dialog title={user.full_name} onClose={props.onClose} class="profile-dialog">
      <div class="dialog-body">
        <CardAvatar user={user} />
        <Facts state={props.state} user={user} summaryOnly={false} />
      </div>
    </Dialog>
  );
}
