import type { Deps } from "../../deps.js";
import { accessMessage } from "../../access/message.js";
import { audienceUserIds, messageAudience } from "../../access/message-audience.js";
import { allocateIds } from "../../data/counters.js";
import type { MessageRecord, SubmessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { appendSubmessage, MAX_SUBMESSAGE_BYTES, MAX_SUBMESSAGES } from "../../data/submessages.js";
import { validatePollData, validateTodoData } from "../../domain/widget-data.js";
import { widgetTypeOf } from "../../domain/widgets.js";
import { InvalidMessageError, JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";

/**
 * Submessages: the state changes of poll and to-do widgets
 * (https://zulip.com/api/send-submessage; Zulip's `process_submessage`
 * view and `do_add_submessage` / `verify_submessage_sender` in
 * `zerver/actions/submessage.py`). Storage and why concurrent votes never
 * conflict: `shared/data/submessages.ts`.
 */

/** Most characters of a submessage's `content` (a vote is ~40; an option or task as long as a message at most). */
export const MAX_SUBMESSAGE_CONTENT_LENGTH = 10_000;

/** Most characters of a `msg_type` (Zulip's apps send `widget`). */
export const MAX_SUBMESSAGE_TYPE_LENGTH = 100;

/** What `POST /submessage` is given. */
export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  /** JSON text, stored as given. */
  content: string;
}

/**
 * Zulip's `verify_submessage_sender`: the message's sender starts a
 * message's "subconversation"; others may join once the sender has a
 * submessage on it (the widget submessage a `/poll` or `/todo` message
 * gets at send).
 * @throws JsonableError `You cannot attach a submessage to this message.`
 */
function verifySubmessageSender(message: MessageRecord, userId: number): void {
  if (message.sender_id === userId) return;
  if ((message.submessages ?? []).some((s) => s.sender_id === message.sender_id)) return;
  throw new JsonableError("You cannot attach a submessage to this message.");
}

/**
 * Zulip's `do_add_submessage` event: the `submessage` event
 * (https://zulip.com/api/get-events#submessage) to `userIds`.
 */
export async function notifySubmessage(deps: Deps, submessage: SubmessageRecord, userIds: number[]): Promise<void> {
  await sendEvent(
    deps,
    {
      type: "submessage",
      msg_type: submessage.msg_type,
      content: submessage.content,
      message_id: submessage.message_id,
      sender_id: submessage.sender_id,
      submessage_id: submessage.id,
    },
    userIds,
  );
}

/**
 * `POST /submessage` (https://zulip.com/api/send-submessage; Zulip's
 * `process_submessage`): adds a submessage to a message the user can see
 * and tells everyone who can see it.
 *
 * Checks, in Zulip's order: the user may access the message
 * (`accessMessage`: its rules, one error for every refusal); the sender
 * rule ({@link verifySubmessageSender}); `content` is JSON; on a poll or
 * to-do widget message, the content is one of the widget's forms
 * (`shared/domain/widget-data.ts`; only the widget's author may edit the
 * question or title). Any `msg_type` is accepted and any JSON on a message
 * that is no poll or to-do list, as in Zulip. Beyond Zulip, bounds keep the
 * message item within DynamoDB's item limit: `msg_type` and `content`
 * length, and the message's submessage count and bytes
 * (`shared/data/submessages.ts`).
 *
 * The event goes to the message's audience (`messageAudience`: every row
 * holder, and a shared-history stream's current subscribers) and to the
 * poster, who may be reading public history without a row; Zulip sends it
 * to row holders only.
 *
 * Round trips: access (1–2), the ID (1), the UpdateItem (whatever others
 * post at the same time) beside the audience read (1), the event (1).
 * @throws InvalidMessageError `Invalid message(s)`; JsonableError
 *   `You cannot attach a submessage to this message.`, `Invalid json for submessage`,
 *   the widget checks' messages, `content is too long (limit: 10000 characters)`,
 *   `msg_type is too long (limit: 100 characters)`,
 *   `This message has too many submessages (limit: 2000, or 200000 bytes in all).`
 */
export async function checkProcessSubmessage(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  req: SubmessageRequest,
): Promise<void> {
  const { message } = await accessMessage(deps, realm, user, req.messageId);
  verifySubmessageSender(message, user.user_id);
  let data: unknown;
  try {
    data = JSON.parse(req.content);
  } catch {
    throw new JsonableError("Invalid json for submessage");
  }
  const widgetType = widgetTypeOf(message.submessages ?? []);
  const isWidgetAuthor = message.sender_id === user.user_id;
  if (widgetType === "poll") validatePollData(data, isWidgetAuthor);
  if (widgetType === "todo") validateTodoData(data, isWidgetAuthor);
  if (req.msgType.length > MAX_SUBMESSAGE_TYPE_LENGTH) {
    throw new JsonableError(`msg_type is too long (limit: ${MAX_SUBMESSAGE_TYPE_LENGTH} characters)`);
  }
  if (req.content.length > MAX_SUBMESSAGE_CONTENT_LENGTH) {
    throw new JsonableError(`content is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)`);
  }
  if ((message.submessages ?? []).length >= MAX_SUBMESSAGES) throw tooManySubmessages();

  const submessage: SubmessageRecord = {
    msg_type: req.msgType,
    content: req.content,
    message_id: message.id,
    sender_id: user.user_id,
    id: await allocateIds(deps, "submessage"),
  };
  const [added, audience] = await Promise.all([appendSubmessage(deps, submessage), messageAudience(deps, message)]);
  if (added === "no-message") throw new InvalidMessageError();
  if (added === "full") throw tooManySubmessages();
  await notifySubmessage(deps, submessage, audienceUserIds(audience, user.user_id));
}

function tooManySubmessages(): JsonableError {
  return new JsonableError(`This message has too many submessages (limit: ${MAX_SUBMESSAGES}, or ${MAX_SUBMESSAGE_BYTES} bytes in all).`);
}
