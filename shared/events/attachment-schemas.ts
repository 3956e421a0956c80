import { z } from "zod";
import { eventIdField, integer, positiveId } from "./object-schemas.js";

/**
 * An attachment object (OpenAPI `Attachments`; https://zulip.com/api/get-attachments):
 * `create_time` and each message's `date_sent` in UNIX milliseconds.
 */
export const attachmentSchema = z.strictObject({
  id: positiveId,
  name: z.string(),
  path_id: z.string(),
  size: integer.nonnegative(),
  create_time: integer,
  messages: z.array(z.strictObject({ id: positiveId, date_sent: integer })),
});

/**
 * The `attachment` events (https://zulip.com/api/get-events#attachment-add
 * and `update`/`remove`) at feature level 283, sent to the uploader's
 * clients; `upload_space_used` is the organization's total in bytes.
 */
export const ATTACHMENT_EVENT_SCHEMAS = {
  "attachment/add": z.strictObject({
    id: eventIdField,
    type: z.literal("attachment"),
    op: z.literal("add"),
    attachment: attachmentSchema,
    upload_space_used: integer.nonnegative(),
  }),
  "attachment/update": z.strictObject({
    id: eventIdField,
    type: z.literal("attachment"),
    op: z.literal("update"),
    attachment: attachmentSchema,
    upload_space_used: integer.nonnegative(),
  }),
  "attachment/remove": z.strictObject({
    id: eventIdField,
    type: z.literal("attachment"),
    op: z.literal("remove"),
    attachment: z.strictObject({ id: positiveId }),
    upload_space_used: integer.nonnegative(),
  }),
} satisfies Record<string, z.ZodType>;
