import type { Deps } from "../../deps.js";
import { batchGet } from "../../data/batch-get.js";
import { recordOf } from "../../data/items.js";
import { keys } from "../../data/keys.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { addMessageRecipients } from "../../data/messages.js";

import { getStreamsByIds } from "../../data/streams.js";
import { getSubscriptionsByPairs, listUserSubscriptions } from "../../data/subscriptions.js";
import { isMentionFlagSet, putUserMessages, STORED_FLAGS, updateUserMessagesFlags } from "../../data/user-messages.js";

import { InvalidMessageError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { canReadStreamHistory } from "../../access/stream.js";

/**
 * Personal message flags (spec "Message" flag table, "States and
 * transitions"; Zulip's `do_update_message_flags`).
 */

/** Flags a user may set or clear through the API. */
export const USER_EDITABLE_FLAGS: readonly string[] = ["read", "starred", "collapsed"];

/** Every flag name the API knows (the stored ones and the legacy `wildcard_mentioned`). */
const API_FLAGS: ReadonlySet<string> = new Set([...STORED_FLAGS, "wildcard_mentioned"]);

/**
 * Refuses flags a user may not change, with Zulip's words.
 * @throws JsonableError `Invalid flag: '<flag>'` (unknown) / `Flag not editable: '<flag>'` (e.g. `mentioned`)
 */
export function checkEditableFlag(flag: string): void {
  if (!API_FLAGS.has(flag)) throw new JsonableError(`Invalid flag: '${flag}'`);
  if (!USER_EDITABLE_FLAGS.includes(flag)) throw new JsonableError(`Flag not editable: '${flag}'`);
}

/**
 * Refuses an operation other than `add`/`remove`.
 * @throws JsonableError `Invalid message flag operation: '<op>'`
 */
export function checkFlagOperation(op: string): asserts op is "add" | "remove" {
  if (op !== "add" && op !== "remove") throw new JsonableError(`Invalid message flag operation: '${op}'`);
}

/** A flag list with `flag` set or cleared (order kept, no duplicates). */
export function withFlag(flags: readonly string[], flag: string, add: boolean): string[] {
  const rest = flags.filter((f) => f !== flag);
  return add ? [...rest, flag] : rest;
}

/**
 * Zulip's `format_unread_message_details`: what a client needs to put a
 * message back into its unread counts (`message_details` of an
 * `update_message_flags` removal of `read`).
 */
export function unreadMessageDetails(
  userId: number,
  messages: MessageRecord[],
  rows: Map<number, UserMessageRecord>,
  subs: Map<number, SubscriptionRecord>,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const details: Record<string, unknown> =
      m.recipient_type === "private"
        ? { type: "private", user_ids: (m.dm_user_ids ?? []).filter((id) => id !== userId) }
        : {
            type: "stream",
            stream_id: m.stream_id,
            topic: m.topic,
            unmuted_stream_msg: !(subs.get(m.stream_id!)?.is_muted ?? false),
          };
    if (isMentionFlagSet(rows.get(m.id)?.flags ?? [])) details.mentioned = true;
    out[String(m.id)] = details;
  }
  return out;
}

/**
 * `POST /messages/flags` (spec "Update personal message flags"; Zulip's
 * `do_update_message_flags`).
 *
 * - Messages the user has a row for change in place. Stream messages the
 *   user can read but never received get a row with `historical` and
 *   `read` (and the flag) when the flag is added — starring a public
 *   stream's old message puts it in the user's history.
 * - Removing `read` ignores stream messages of streams the user is not
 *   subscribed to (Zulip's invariant: unread stream messages are in
 *   subscribed streams).
 * - Any other ID that is missing or invisible refuses the whole request.
 *
 * Cost: one BatchGet (messages and rows together, 50 IDs per call in
 * parallel); historical rows add one round trip (streams, subscriptions);
 * changed rows are conditional UpdateItems, 32 in flight (a conflicting
 * concurrent change is re-read and re-applied, never overwritten); one
 * event write.
 *
 * @returns the IDs whose flag actually changed, ascending
 * @throws JsonableError flag/operation errors, `Invalid message(s)`
 */
export async function doUpdateMessageFlags(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  op: string,
  flag: string,
  messageIds: number[],
): Promise<number[]> {
  checkEditableFlag(flag);
  checkFlagOperation(op);
  const add = op === "add";
  const ids = [...new Set(messageIds)];
  const unreading = flag === "read" && !add;

  const [items, subsList] = await Promise.all([
    batchGet(deps, ids.flatMap((id) => [keys.message(id), keys.userMessage(user.user_id, id)]), true),
    unreading ? listUserSubscriptions(deps, user.user_id) : Promise.resolve([] as SubscriptionRecord[]),
  ]);
  const messages = new Map<number, MessageRecord>();
  const rows = new Map<number, UserMessageRecord>();
  for (const item of items) {
    if (item.type === "message") {
      const m = recordOf<MessageRecord>(item);
      if (m.realm_id === realm.id) messages.set(m.id, m);
    } else if (item.type === "user_message") {
      const um = recordOf<UserMessageRecord>(item);
      rows.set(um.message_id, um);
    }
  }
  const activeSubs = new Map(subsList.filter((s) => s.active).map((s) => [s.stream_id, s]));

  let targets = ids;
  if (unreading) {
    targets = ids.filter((id) => {
      const m = messages.get(id);
      return !(m && m.recipient_type === "stream" && !activeSubs.has(m.stream_id!));
    });
  }

  // IDs without a row must be stream messages the user may read.
  const withoutRow = targets.filter((id) => !rows.has(id));
  for (const id of withoutRow) {
    const m = messages.get(id);
    if (!m || m.recipient_type !== "stream" || m.stream_id === undefined) throw new InvalidMessageError();
  }
  if (withoutRow.length > 0) {
    const streamIds = [...new Set(withoutRow.map((id) => messages.get(id)!.stream_id!))];
    const [streams, subs] = await Promise.all([
      getStreamsByIds(deps, realm.id, streamIds),
      getSubscriptionsByPairs(deps, streamIds.map((streamId) => ({ userId: user.user_id, streamId }))),
    ]);
    const subByStream = new Map<number, SubscriptionRecord>();
    for (const s of subs as SubscriptionRecord[]) subByStream.set(s.stream_id, s);
    for (const id of withoutRow) {
      const m = messages.get(id)!;
      const stream = streams.get(m.stream_id!);
      const sub = subByStream.get(m.stream_id!);
      if (!stream || !canReadStreamHistory(user, stream, sub?.active ? sub : undefined)) throw new InvalidMessageError();
    }
  }

  const updates: UserMessageRecord[] = [];
  const created: UserMessageRecord[] = [];
  const changed: number[] = [];
  for (const id of targets) {
    const row = rows.get(id);
    if (row) {
      if (row.flags.includes(flag) !== add) updates.push(row);
    } else if (add) {
      // Zulip's create_historical_user_messages: historical rows start read.
      const m = messages.get(id)!;
      const flags = withFlag(["read", "historical"], flag, true);
      created.push({ user_id: user.user_id, message_id: id, recipient_id: m.recipient_id, is_private: false, flags });
      if (flag !== "read") changed.push(id);
    }
  }

  // Existing rows: conditional UpdateItems (a concurrent change of another
  // flag on the same row is kept); new historical rows: puts, and the user
  // joins each message's recipients.
  const [updated] = await Promise.all([
    updateUserMessagesFlags(deps, updates, (_row, flags) => withFlag(flags, flag, add)),
    putUserMessages(deps, created),
    ...created.map((r) => addMessageRecipients(deps, r.message_id, [user.user_id])),
  ]);
  for (const row of updated) {
    rows.set(row.message_id, row);
    changed.push(row.message_id);
  }
  changed.sort((a, b) => a - b);

  const event: Record<string, unknown> & { type: string } = {
    type: "update_message_flags",
    op,
    operation: op,
    flag,
    messages: changed,
    all: false,
  };
  if (unreading) {
    event.message_details = unreadMessageDetails(
      user.user_id,
      changed.map((id) => messages.get(id)!).filter(Boolean),
      rows,
      activeSubs,
    );
  }
  await sendEvent(deps, event, [user.user_id]);
  return changed;
}
