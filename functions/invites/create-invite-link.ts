import { doCreateMultiuseInvite } from "../../shared/actions/invites/manage-invites.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { inviteOptionSpecs, streamIdList } from "./invite-params.js";

/** `POST /invites/multiuse` (https://zulip.com/api/create-invite-link): a reusable invitation link, answered as `invite_link`. */
export const createInviteLink: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { stream_ids: param.json(streamIdList).default([]), ...inviteOptionSpecs });
  return { invite_link: await doCreateMultiuseInvite(ctx.deps, ctx.realm, ctx.user, p) };
};
