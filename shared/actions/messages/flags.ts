import type { Deps } from "../../deps.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { addMessageRecipients } from "../../data/messages.js";
import { getStreamsByIds } from "../../data/streams.js";
import { getSubscriptionsByPairs, listUserSubscriptions } from "../../data/subscriptions.js";
import {
  ACTIVE_PUSH_FLAG,
  isMentionFlagSet,
  messagesWithRows,
  putUserMessages,
  NON_API_FLAGS,
  STORED_FLAGS,
  updateUserMessagesFlags,
} from "../../data/user-messages.js";
import { InvalidMessageError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import { canReadStreamHistory } from "../../access/stream.js";
import { clearingActivePush, enqueueWithRemovals, pushRemovalJobs, readAndCleared } from "./push-removals.js";

/**
 * Personal message flags (https://zulip.com/api/update-message-flags,
 * https://zulip.com/api/update-message-flags#available-flags; Zulip's
 * `do_update_message_flags` in `zerver/actions/message_flags.py`).
 */

/** Flags a user may set or clear through the API. */
export const USER_EDITABLE_FLAGS: readonly string[] = ["read", "starred", "collapsed"];

/** Every flag name the API knows (the stored ones and the legacy `wildcard_mentioned`). */
const API_FLAGS: ReadonlySet<string> = new Set([...STORED_FLAGS.filter((f) => !NON_API_FLAGS.includes(f)), "wildcard_mentioned"]);

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

/** The `message_details` of an `update_message_flags` removal of `read`: message ID → details. */
export type UnreadMessageDetails = NonNullable<EventOf<"update_message_flags/remove">["message_details"]>;

/**
 * Zulip's `format_unread_message_details`: what a client needs to put a
 * message back into its unread counts (`message_details` of an
 * `update_message_flags` removal of `read`).
 * @param subs the user's active subscriptions by stream ID (for `unmuted_stream_msg`)
 */
export function unreadMessageDetails(
  userId: number,
  messages: MessageRecord[],
  rows: Map<number, UserMessageRecord>,
  subs: Map<number, SubscriptionRecord>,
): UnreadMessageDetails {
  const out: UnreadMessageDetails = {};
  for (const m of messages) {
    const details: UnreadMessageDetails[string] =
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
 * Sends the `update_message_flags` event of a flag added to messages
 * (https://zulip.com/api/get-events#update_message_flags-add) to the user
 * whose flags changed.
 * @param all true for `mark_all_as_read` done (then `messages` is empty, as Zulip sends it)
 */
export async function notifyFlagAdded(deps: Deps, userId: number, flag: string, messages: number[], all = false): Promise<void> {
  const event: EventOf<"update_message_flags/add"> = {
    type: "update_message_flags",
    op: "add",
    operation: "add",
    flag,
    messages,
    all,
  };
  await sendEvent(deps, event, [userId]);
}

/**
 * Sends the `update_message_flags` event of a flag removed from messages
 * (https://zulip.com/api/get-events#update_message_flags-remove) to the
 * user whose flags changed.
 * @param details `message_details`, sent when `read` is removed
 */
export async function notifyFlagRemoved(
  deps: Deps,
  userId: number,
  flag: string,
  messages: number[],
  details?: UnreadMessageDetails,
): Promise<void> {
  const event: EventOf<"update_message_flags/remove"> = {
    type: "update_message_flags",
    op: "remove",
    operation: "remove",
    flag,
    messages,
    all: false,
    ...(details ? { message_details: details } : {}),
  };
  await sendEvent(deps, event, [userId]);
}

/**
 * `POST /messages/flags` (https://zulip.com/api/update-message-flags;
 * Zulip's `do_update_message_flags`).
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
 * event write. Adding `read` also clears `active_mobile_push_notification`
 * in the same writes and, beside the event, enqueues one `push_removal`
 * job of the rows that had it (none, and no call, when no row had it).
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

  const [found, subsList] = await Promise.all([
    messagesWithRows(deps, user.user_id, ids),
    unreading ? listUserSubscriptions(deps, user.user_id) : Promise.resolve([] as SubscriptionRecord[]),
  ]);
  const messages = new Map([...found.messages].filter(([, m]) => m.realm_id === realm.id));
  const rows = found.rows;
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
    for (const s of subs) subByStream.set(s.stream_id, s);
    for (const id of withoutRow) {
      const m = messages.get(id)!;
      const stream = streams.get(m.stream_id!);
      const sub = subByStream.get(m.stream_id!);
      if (!stream || !canReadStreamHistory(user, stream, sub?.active ? sub : undefined)) throw new InvalidMessageError();
    }
  }

  // Reading clears the messages' notifications from the phone (Zulip's
  // `do_clear_mobile_push_notifications_for_ids`), in the same write; a
  // row already read that still has one is written for that alone.
  const reading = flag === "read" && add;
  const updates: UserMessageRecord[] = [];
  const created: UserMessageRecord[] = [];
  const changed: number[] = [];
  for (const id of targets) {
    const row = rows.get(id);
    if (row) {
      if (row.flags.includes(flag) !== add || (reading && row.flags.includes(ACTIVE_PUSH_FLAG))) updates.push(row);
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
  const clearing = clearingActivePush((_row, flags) => readAndCleared(flags));
  const [updated] = await Promise.all([
    updateUserMessagesFlags(deps, updates, reading ? clearing.change : (_row, flags) => withFlag(flags, flag, add)),
    putUserMessages(deps, created),
    ...created.map((r) => addMessageRecipients(deps, r.message_id, [user.user_id])),
  ]);
  const hadFlag = new Set(updates.filter((r) => r.flags.includes(flag) === add).map((r) => r.message_id));
  for (const row of updated) {
    rows.set(row.message_id, row);
    if (!hadFlag.has(row.message_id)) changed.push(row.message_id);
  }
  changed.sort((a, b) => a - b);
  const removals = reading ? pushRemovalJobs(realm.id, clearing.removed(updated)) : [];

  if (!add) {
    await notifyFlagRemoved(
      deps,
      user.user_id,
      flag,
      changed,
      unreading
        ? unreadMessageDetails(user.user_id, changed.map((id) => messages.get(id)!).filter(Boolean), rows, activeSubs)
        : undefined,
    );
  } else await Promise.all([notifyFlagAdded(deps, user.user_id, flag, changed), enqueueWithRemovals(deps, [], removals)]);
  return changed;
}
