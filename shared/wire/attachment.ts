import type { AttachmentRecord } from "../data/records/attachment.js";

/** An attachment as the API shows it (OpenAPI `Attachments`; https://zulip.com/api/get-attachments). */
export interface WireAttachment {
  id: number;
  name: string;
  path_id: string;
  /** Bytes. */
  size: number;
  /** UNIX milliseconds. */
  create_time: number;
  /** Messages linking the file; `date_sent` in UNIX milliseconds. */
  messages: { id: number; date_sent: number }[];
}

/** The wire form of an attachment (Zulip's `Attachment.to_dict`). */
export function attachmentToWire(record: AttachmentRecord): WireAttachment {
  return {
    id: record.id,
    name: record.file_name,
    path_id: record.path_id,
    size: record.size,
    create_time: record.create_time,
    messages: record.messages.map((m) => ({ id: m.id, date_sent: m.date_sent })),
  };
}
