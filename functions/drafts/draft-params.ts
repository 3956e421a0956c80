import { z } from "zod";

/** Most user IDs in one draft's `to`. */
const MAX_DRAFT_TO = 1000;

/**
 * One draft object as `POST /drafts` and `PATCH /drafts/{draft_id}` accept it
 * (OpenAPI `Draft`, https://zulip.com/api/create-drafts): no `id`, no other
 * key; `timestamp` optional, in UNIX seconds.
 */
export const draftObject = z.strictObject({
  type: z.enum(["", "stream", "private"]),
  to: z.array(z.int()).max(MAX_DRAFT_TO),
  topic: z.string(),
  content: z.string(),
  timestamp: z.number().optional(),
});

/** The `drafts` list of `POST /drafts`; its length is checked by the action, with a message of its own. */
export const draftList = z.array(draftObject);
