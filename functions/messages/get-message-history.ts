import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";
import { fetchMessageHistory } from "../../shared/actions/messages/message-history.js";

/** `GET /messages/{message_id}/history` (https://zulip.com/api/get-message-history). */
export const getMessageHistory: Endpoint = async (ctx) =>
  fetchMessageHistory(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "message_id"));
