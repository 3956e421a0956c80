import type { Deps } from "../../deps.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { getUsersByIds } from "../../data/users.js";
import { avatarUrlFor } from "../../domain/avatar.js";
import { apiEmail, EmailVisibility, emailVisibilityOf } from "../../domain/email.js";

/**
 * Messages as fetched show their sender and DM participants as they are
 * now, not as they were when the message was sent: Zulip's `MessageDict`
 * hydration (`MessageDict.hydrate_sender` / `bulk_hydrate_recipient_info`)
 * fills `sender_email`, `sender_full_name`, `avatar_url` and the
 * `display_recipient` users from the current users, so a renamed user, a
 * new avatar or a restricted `email_address_visibility` reaches older
 * messages too. The email is the user's API email (`email`, a fake address
 * unless visible to everyone), the same for every viewer, as in Zulip.
 */

/** The users a page of messages names (senders and DM participants), by ID. */
export type MessageUsers = ReadonlyMap<number, UserRecord>;

/**
 * Reads the senders and DM participants of `messages`: one BatchGet of the
 * distinct users (one round trip; 100 keys per request, requests in
 * parallel).
 */
export async function readMessageUsers(
  deps: Pick<Deps, "db" | "table">,
  realmId: number,
  messages: readonly MessageRecord[],
): Promise<MessageUsers> {
  const ids = new Set<number>();
  for (const m of messages) {
    ids.add(m.sender_id);
    if (Array.isArray(m.display_recipient)) for (const u of m.display_recipient) ids.add(u.id);
  }
  if (ids.size === 0) return new Map();
  return getUsersByIds(deps, realmId, [...ids]);
}

/**
 * `m` with its sender and DM participants taken from `users` (see
 * {@link readMessageUsers}); users not found keep the stored values.
 */
export function withCurrentUsers(
  m: MessageRecord,
  users: MessageUsers,
  realm: RealmRecord,
  config: Deps["config"],
): MessageRecord {
  const sender = users.get(m.sender_id);
  const out: MessageRecord = { ...m };
  if (sender) {
    out.sender_email = apiEmail(sender, realm, config);
    out.sender_full_name = sender.full_name;
    out.sender_avatar_url = avatarUrlFor(sender, { clientGravatar: false, emailVisible: true })!;
    out.sender_gravatar = sender.avatar_source === "G" && emailVisibilityOf(sender, realm) === EmailVisibility.EVERYONE;
  }
  if (Array.isArray(m.display_recipient)) {
    out.display_recipient = m.display_recipient.map((r) => {
      const u = users.get(r.id);
      return u ? { ...r, email: apiEmail(u, realm, config), full_name: u.full_name } : r;
    });
  }
  return out;
}
