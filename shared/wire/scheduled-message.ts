import type { ScheduledMessageRecord } from "../data/records/scheduled-message.js";

/**
 * A scheduled message on the wire (OpenAPI `ScheduledMessage`,
 * https://zulip.com/api/get-scheduled-messages): `to` the stream ID, or the
 * direct message's other participants; `topic` only for stream messages.
 */
export interface WireScheduledMessage {
  scheduled_message_id: number;
  type: "stream" | "private";
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** A stored scheduled message as `GET /scheduled_messages`, `POST /register` and `scheduled_messages` events show it (Zulip's `ScheduledMessage.to_dict`). */
export function scheduledMessageToWire(rec: ScheduledMessageRecord): WireScheduledMessage {
  return {
    scheduled_message_id: rec.id,
    type: rec.type,
    to: Array.isArray(rec.to) ? [...rec.to] : rec.to,
    ...(rec.type === "stream" ? { topic: rec.topic } : {}),
    content: rec.content,
    rendered_content: rec.rendered_content,
    scheduled_delivery_timestamp: rec.scheduled_delivery_timestamp,
    failed: rec.failed,
  };
}
