import type { Deps } from "../../deps.js";
import type { MessageRecord } from "../../data/records/message.js";
import { wireFlags } from "../../data/user-messages.js";
import { sendEvent, type MessageEventInternal, type SendEventOptions } from "../../events/publish.js";
import { messageToWire } from "../../wire/message.js";

/**
 * Longest `local_id` and `queue_id` of `POST /messages` (characters).
 * Zulip bounds neither; both are copied into the sender's `message` event
 * item, written after the message is stored, so an unbounded value could
 * fail that write past the commit point (DynamoDB's 400 KB item limit).
 * Queue IDs are 38 characters and clients' local IDs short numbers.
 */
export const MAX_LOCAL_ECHO_ID_LENGTH = 100;

/** The sending client's identifiers of a new message (`POST /messages` `local_id` and `queue_id`). */
export interface LocalEcho {
  localId?: string;
  queueId?: string;
}

/**
 * The `message` event of a stored message (https://zulip.com/api/get-events#message),
 * as the logs keep it: the message rendered (queues without `apply_markdown`
 * get `raw_content` instead), and for the sender's queue the client's
 * `local_id` (delivered as `local_message_id` to the queue `sender_queue_id`
 * only).
 */
export function messageEvent(message: MessageRecord, echo: LocalEcho = {}): MessageEventInternal {
  return {
    type: "message",
    message: messageToWire(message, { applyMarkdown: true, clientGravatar: false }),
    raw_content: message.content,
    ...(echo.localId !== undefined ? { local_id: echo.localId } : {}),
    ...(echo.queueId !== undefined ? { sender_queue_id: echo.queueId } : {}),
  };
}

/**
 * Zulip's `message` event of `do_send_messages`: tells each recipient of a
 * stored message, with their stored flags in wire form (see `wireFlags`).
 * @param recipients user ID and stored flags of each receiver
 * @param options.publicStream, options.inline see `sendEvent`
 */
export async function notifyMessage(
  deps: Deps,
  message: MessageRecord,
  recipients: readonly { user_id: number; flags: string[] }[],
  options: SendEventOptions & LocalEcho = {},
): Promise<void> {
  const { localId, queueId, ...sendOptions } = options;
  await sendEvent(
    deps,
    messageEvent(message, { localId, queueId }),
    recipients.map((r) => ({ id: r.user_id, flags: wireFlags(r.flags) })),
    sendOptions,
  );
}
