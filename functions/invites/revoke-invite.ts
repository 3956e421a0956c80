import { doResendUserInvite } from "../../shared/actions/invites/invite-users.js";
import { doRevokeMultiInvite, doRevokeUserInvite } from "../../shared/actions/invites/manage-invites.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /invites/{invite_id}` (https://zulip.com/api/revoke-email-invite): revokes an email invitation. */
export const revokeEmailInvite: Endpoint = async (ctx) => {
  await doRevokeUserInvite(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "invite_id"));
  return {};
};

/** `POST /invites/{invite_id}/resend` (https://zulip.com/api/resend-email-invite): mails an email invitation again. */
export const resendEmailInvite: Endpoint = async (ctx) => {
  await doResendUserInvite(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "invite_id"));
  return {};
};

/** `DELETE /invites/multiuse/{invite_id}` (https://zulip.com/api/revoke-invite-link): revokes a reusable link. */
export const revokeInviteLink: Endpoint = async (ctx) => {
  await doRevokeMultiInvite(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "invite_id"));
  return {};
};
