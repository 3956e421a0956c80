import { getInvitesControlledByUser } from "../../shared/actions/invites/manage-invites.js";
import type { Endpoint } from "../../shared/http/context.js";

/** `GET /invites` (https://zulip.com/api/get-invites): the open invitations the caller manages. */
export const getInvites: Endpoint = async (ctx) => {
  return { invites: await getInvitesControlledByUser(ctx.deps, ctx.realm, ctx.user) };
};
