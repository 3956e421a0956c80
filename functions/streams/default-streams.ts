import { checkAddDefaultStream, checkRemoveDefaultStream } from "../../shared/actions/streams/default-streams.js";
import { requireRealmAdmin } from "../../shared/access/user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

const SPECS = { stream_id: param.int() };

/** `POST /default_streams` (https://zulip.com/api/add-default-stream): administrators only. */
export const addDefaultStream: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { stream_id } = parseParams(ctx.params, SPECS);
  await checkAddDefaultStream(ctx.deps, ctx.realm, ctx.user, stream_id);
};

/** `DELETE /default_streams` (https://zulip.com/api/remove-default-stream): administrators only. */
export const removeDefaultStream: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { stream_id } = parseParams(ctx.params, SPECS);
  await checkRemoveDefaultStream(ctx.deps, ctx.realm, ctx.user, stream_id);
};
