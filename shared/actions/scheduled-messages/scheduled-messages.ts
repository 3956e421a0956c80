import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { ScheduledMessageRecord } from "../../data/records/scheduled-message.js";
import type { UserRecord } from "../../data/records/user.js";
import {
  getScheduledMessage,
  putNewScheduledMessage,
  removeScheduledMessage,
  replaceScheduledMessage,
} from "../../data/scheduled-messages.js";
import { readBySender } from "../../domain/message-fields.js";
import { JsonableError } from "../../errors.js";
import { checkMessage, type CheckedMessage } from "../messages/send-message.js";
import { enqueueScheduledDelivery } from "./enqueue.js";
import { notifyScheduledMessageRemoved, notifyScheduledMessagesAdded, notifyScheduledMessageUpdated } from "./notify.js";

/**
 * Scheduling, editing and cancelling messages to be sent later (Zulip's
 * `check_schedule_message`, `edit_scheduled_message` and
 * `delete_scheduled_message` in `zerver/actions/scheduled_messages.py`;
 * https://zulip.com/help/schedule-a-message). The message is checked as
 * `POST /messages` checks it, stored, announced to the sender's clients by a
 * `scheduled_messages` event, and a `send_scheduled_message` job is
 * enqueued for its delivery time (`deliver.ts`).
 */

/** Zulip's `ResourceNotFoundError` for a scheduled message the caller does not have: 404, code `BAD_REQUEST`. */
function scheduledMessageDoesNotExist(): JsonableError {
  return new JsonableError("Scheduled message does not exist", { httpStatus: 404 });
}

/** A `POST /scheduled_messages` request after parameter decoding (https://zulip.com/api/create-scheduled-message). */
export interface ScheduleMessageRequest {
  /** `stream`/`channel` or `direct`/`private`. */
  type: string;
  /** JSON-decoded `to`: a stream ID, or a list of user IDs. */
  to: unknown;
  topic: string | undefined;
  content: string;
  /** UNIX seconds. */
  scheduledDeliveryTimestamp: number;
  readBySender: boolean | undefined;
  clientName: string;
}

/** A `PATCH /scheduled_messages/{id}` request: only the given fields change (https://zulip.com/api/update-scheduled-message). */
export interface EditScheduledMessageRequest {
  type?: string;
  to?: unknown;
  topic?: string;
  content?: string;
  scheduledDeliveryTimestamp?: number;
  clientName: string;
}

/**
 * `stream`/`channel` → `stream`, `direct`/`private` → `private` (Zulip's
 * `API_RECIPIENT_TYPES`, checked with the parameters, before anything else).
 * @throws JsonableError `Invalid type`
 */
function storedType(type: string): "stream" | "private" {
  if (type === "stream" || type === "channel") return "stream";
  if (type === "private" || type === "direct") return "private";
  throw new JsonableError("Invalid type");
}

/**
 * Zulip's `extract_stream_id` / `extract_direct_message_recipient_ids`:
 * the scheduled message's `to` is a stream ID, or a list of user IDs.
 * @throws JsonableError `Invalid data type for channel ID`, `Invalid data type for recipients`,
 *   `Recipient list may only contain user IDs`
 */
function checkTo(type: "stream" | "private", to: unknown): number | number[] {
  if (type === "stream") {
    if (typeof to !== "number" || !Number.isInteger(to)) throw new JsonableError("Invalid data type for channel ID");
    return to;
  }
  if (!Array.isArray(to)) throw new JsonableError("Invalid data type for recipients");
  for (const id of to) {
    if (typeof id !== "number" || !Number.isInteger(id)) throw new JsonableError("Recipient list may only contain user IDs");
  }
  return [...new Set(to as number[])];
}

/**
 * The delivery time must be after now (Zulip's view check).
 * @throws JsonableError `Scheduled delivery time must be in the future.`
 */
function checkDeliveryTime(deps: Deps, seconds: number): void {
  if (seconds * 1000 <= deps.clock.now()) throw new JsonableError("Scheduled delivery time must be in the future.");
}

/** The stored `to` of a checked message: the stream ID, or the other participants (the sender alone for a message to themselves). */
function wireTo(checked: CheckedMessage, senderId: number): number | number[] {
  if (checked.addressee.kind === "stream") return checked.addressee.stream.stream_id;
  const others = checked.addressee.participants.map((u) => u.user_id).filter((id) => id !== senderId);
  return others.length > 0 ? others : [senderId];
}

/** The fields a check decides: type, recipient, topic, content and its rendering. */
function checkedFields(checked: CheckedMessage, senderId: number) {
  return {
    type: checked.addressee.kind,
    to: wireTo(checked, senderId),
    topic: checked.topic,
    content: checked.content,
    rendered_content: checked.rendered.html,
  } satisfies Partial<ScheduledMessageRecord>;
}

/**
 * `POST /scheduled_messages` (https://zulip.com/api/create-scheduled-message;
 * Zulip's `check_schedule_message`): checks the time, then the message as
 * `POST /messages` would (`checkMessage`), allocates its ID, stores it, sends
 * `scheduled_messages` `add` to the sender's clients and enqueues its
 * delivery job. `read_by_sender` left out: read for a human client's
 * message to others (Zulip's legacy default), unread for one to oneself.
 * @returns the scheduled message's ID (not the ID the message gets when sent)
 * @throws JsonableError `Scheduled delivery time must be in the future.`, the errors of
 *   {@link checkTo}, and every error of `checkMessage` (`Invalid type`, unknown channel
 *   or user, a channel the sender may not post in, empty content or topic, …)
 */
export async function checkScheduleMessage(
  deps: Deps,
  realm: RealmRecord,
  sender: UserRecord,
  req: ScheduleMessageRequest,
): Promise<number> {
  const type = storedType(req.type);
  checkDeliveryTime(deps, req.scheduledDeliveryTimestamp);
  const to = checkTo(type, req.to);
  const checked = await checkMessage(deps, realm, sender, { type, to, topic: req.topic, content: req.content });
  const fields = checkedFields(checked, sender.user_id);
  const toSelf = fields.type === "private" && Array.isArray(fields.to) && fields.to.length === 1 && fields.to[0] === sender.user_id;
  const id = await allocateIds(deps, "scheduled_message");
  const rec: ScheduledMessageRecord = {
    user_id: sender.user_id,
    id,
    realm_id: realm.id,
    ...fields,
    scheduled_delivery_timestamp: req.scheduledDeliveryTimestamp,
    read_by_sender: req.readBySender ?? (readBySender(req.clientName, undefined) && !toSelf),
    client_name: req.clientName,
    failed: false,
    version: 1,
  };
  await putNewScheduledMessage(deps, rec);
  await Promise.all([notifyScheduledMessagesAdded(deps, sender.user_id, [rec]), enqueueScheduledDelivery(deps, rec)]);
  return id;
}

/**
 * Zulip's `access_scheduled_message`: one of the caller's own scheduled
 * messages that is not being sent.
 * @throws JsonableError 404 `Scheduled message does not exist` (another user's ID included)
 * @throws JsonableError `Scheduled message was already sent` while a delivery has it
 */
async function accessScheduledMessage(deps: Deps, user: UserRecord, id: number): Promise<ScheduledMessageRecord> {
  const rec = await getScheduledMessage(deps, user.user_id, id);
  if (!rec) throw scheduledMessageDoesNotExist();
  if (rec.claimed_ms !== undefined) throw new JsonableError("Scheduled message was already sent");
  return rec;
}

/**
 * `PATCH /scheduled_messages/{id}` (https://zulip.com/api/update-scheduled-message;
 * Zulip's `edit_scheduled_message`): changes the given fields; a change of
 * type, recipient or content checks the whole message again, a topic alone
 * is normalized (and ignored for a direct message). A failed message must
 * get a new time and is then scheduled again (`failed: false`). One
 * conditional write on the version read (retried when an edit raced it),
 * then `scheduled_messages` `update` and a delivery job for the new version.
 * @throws JsonableError `Nothing to change`, `Recipient required when updating type of
 *   scheduled message.`, `Topic required when updating scheduled message type to stream.`,
 *   `Scheduled delivery time must be in the future.`, 404 `Scheduled message does not exist`,
 *   `Scheduled message was already sent`, and the errors of {@link checkScheduleMessage}
 */
export async function doEditScheduledMessage(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  id: number,
  req: EditScheduledMessageRequest,
): Promise<void> {
  const { type: reqType, to: reqTo, topic, content, scheduledDeliveryTimestamp: when } = req;
  const newType = reqType === undefined ? undefined : storedType(reqType);
  if (reqType === undefined && reqTo === undefined && topic === undefined && content === undefined && when === undefined) {
    throw new JsonableError("Nothing to change");
  }
  if (reqType !== undefined && reqTo === undefined) {
    throw new JsonableError("Recipient required when updating type of scheduled message.");
  }
  if (newType === "stream" && topic === undefined) {
    throw new JsonableError("Topic required when updating scheduled message type to stream.");
  }
  if (when !== undefined) checkDeliveryTime(deps, when);

  for (let attempt = 0; ; attempt++) {
    const current = await accessScheduledMessage(deps, user, id);
    // Zulip's DeliveryTimeNotInFutureError: a failed message needs a new time.
    if (current.failed && when === undefined) throw new JsonableError("Scheduled delivery time must be in the future.");
    let next: ScheduledMessageRecord = { ...current };
    if (newType !== undefined || reqTo !== undefined || content !== undefined) {
      const type = newType ?? current.type;
      const to = reqTo === undefined ? current.to : checkTo(type, reqTo);
      const checked = await checkMessage(deps, realm, user, {
        type,
        to,
        topic: topic ?? current.topic,
        content: content ?? current.content,
      });
      next = { ...next, ...checkedFields(checked, user.user_id) };
    } else if (topic !== undefined && current.type === "stream") {
      // Topic alone: checked as a send checks it, against the stored stream.
      const checked = await checkMessage(deps, realm, user, { type: "stream", to: current.to, topic, content: current.content });
      next = { ...next, topic: checked.topic };
    }
    if (when !== undefined) next.scheduled_delivery_timestamp = when;
    next = { ...next, client_name: req.clientName, failed: false, version: current.version + 1 };
    delete next.failure_message;
    if (await replaceScheduledMessage(deps, next, current.version)) {
      await Promise.all([notifyScheduledMessageUpdated(deps, next), enqueueScheduledDelivery(deps, next)]);
      return;
    }
    // Another edit won, or a delivery claimed it: read it again (the access check tells which).
    if (attempt >= 2) throw new JsonableError("Scheduled message was already sent");
  }
}

/**
 * `DELETE /scheduled_messages/{id}` (https://zulip.com/api/delete-scheduled-message;
 * Zulip's `delete_scheduled_message`): one conditional DeleteItem (not while
 * a delivery has it), then `scheduled_messages` `remove`. Its pending
 * delivery job finds nothing and stops.
 * @throws JsonableError 404 `Scheduled message does not exist`
 */
export async function doDeleteScheduledMessage(deps: Deps, user: UserRecord, id: number): Promise<void> {
  if (!(await removeScheduledMessage(deps, user.user_id, id))) throw scheduledMessageDoesNotExist();
  await notifyScheduledMessageRemoved(deps, user.user_id, id);
}
