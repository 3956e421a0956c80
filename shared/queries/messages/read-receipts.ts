import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { listMutedUsers } from "../../data/muted-users.js";
import { messageReaderIds } from "../../data/user-messages.js";
import { getUsersByIds } from "../../data/users.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { JsonableError } from "../../errors.js";
import { accessMessage } from "../../access/message.js";

/**
 * `GET /messages/{message_id}/read_receipts`
 * (https://zulip.com/api/get-read-receipts; Zulip's `read_receipts` view).
 *
 * The message must be one the requester may access (`accessMessage`, so a
 * message they may not see answers `Invalid message(s)` whatever the
 * setting); then the organization must have `enable_read_receipts` on.
 * The answer is every user whose row for the message carries `read`, except:
 * the sender (they wrote it); deactivated users; users whose
 * `send_read_receipts` is off; users the requester muted; users who muted
 * the requester (they would otherwise reveal the mute by reading every
 * message at once). Bots are answered like people (their own
 * `send_read_receipts` hides them), and so is the requester. Rows a reader
 * got later (`historical`, e.g. by reacting) count as Zulip's do.
 *
 * Cost, whatever the stream's size: access (1–2 rounds); then in parallel
 * the readers index (gsi6, keys only: one Query page per ~15,000 readers)
 * and the requester's mutes (one Query; who muted the requester is their
 * own user item's `muted_by_ids`, already read); then the readers' user
 * items (eventually consistent BatchGets of 100, all in parallel: one round). A
 * 10,000-reader message: 4–5 rounds, ~100 parallel BatchGet calls
 * (docs/performance.md, "Read receipts").
 * @returns `{ user_ids }` in user-ID order
 * @throws InvalidMessageError; JsonableError `Read receipts are disabled in this organization.`
 */
export async function fetchReadReceipts(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
): Promise<{ user_ids: number[] }> {
  const { message } = await accessMessage(deps, realm, user, messageId);
  if (realmSettings(realm).enable_read_receipts !== true) {
    throw new JsonableError("Read receipts are disabled in this organization.");
  }
  const [readerIds, mutes] = await Promise.all([messageReaderIds(deps, message.id), listMutedUsers(deps, user.user_id)]);
  const hidden = new Set<number>([message.sender_id, ...mutes.map((m) => m.muted_user_id), ...(user.muted_by_ids ?? [])]);
  const candidates = readerIds.filter((id) => !hidden.has(id));
  const users = await getUsersByIds(deps, realm.id, candidates, false);
  return {
    user_ids: candidates.filter((id) => {
      const reader = users.get(id);
      return reader !== undefined && reader.is_active && effectiveUserSettings(reader.settings ?? {}).send_read_receipts !== false;
    }),
  };
}
