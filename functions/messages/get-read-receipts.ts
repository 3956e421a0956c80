import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchReadReceipts } from "../../shared/queries/messages/read-receipts.js";

/** `GET /messages/{message_id}/read_receipts` (https://zulip.com/api/get-read-receipts). */
export const getReadReceipts: Endpoint = async (ctx) =>
  fetchReadReceipts(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "message_id"));
