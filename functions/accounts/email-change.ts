import { doConfirmEmailChange } from "../../shared/actions/users/email-change.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { checkSameOrigin } from "../../shared/http/session-cookies.js";

/**
 * `POST /json/accounts/confirm_new_email/{key}` (Zulip's
 * `confirm_email_change`, which the page at the mailed link
 * `/accounts/confirm_new_email/<key>/` posts to): changes the account's
 * address to the one the link was mailed to. Needs no session: the link
 * proves the new mailbox, and the change was asked for signed in. Answers
 * `{email}` (the new address); refusals 400 `CONFIRMATION_NOT_FOUND` /
 * `CONFIRMATION_USED` / `CONFIRMATION_EXPIRED`, the address errors of
 * `PATCH /settings` when it was taken meanwhile.
 */
export const confirmEmailChange: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  return doConfirmEmailChange(ctx.deps, ctx.realm, ctx.pathParams.key ?? "");
};
