import { doRequestPasswordReset, doResetPassword, getPasswordResetLink } from "../../shared/actions/users/password-reset.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { paramsWithJsonBody } from "../../shared/http/raw-params.js";
import { checkSameOrigin } from "../../shared/http/session-cookies.js";

/**
 * `POST /json/accounts/password/reset` (Zulip's `password_reset`, the
 * "Forgot your password?" form): `email`, as a form or a JSON object.
 * Answers `{}` for any well-formed address, whether or not it has an
 * account; a post from a foreign `Origin` is refused (403 `CSRF_FAILED`).
 */
export const requestPasswordReset: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  const params = paramsWithJsonBody(ctx.params, ctx.headers["content-type"], ctx.body);
  const { email } = parseParams(params, { email: param.string() });
  await doRequestPasswordReset(ctx.deps, ctx.realm, email, { sourceIp: ctx.sourceIp });
  return {};
};

/**
 * `GET /json/accounts/password/reset/{key}`: the page behind a reset link
 * asks whose password it resets. Answers `{email}`; refusals 400
 * `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_USED` / `CONFIRMATION_EXPIRED`.
 */
export const getPasswordReset: PublicEndpoint = async (ctx) => getPasswordResetLink(ctx.deps, ctx.realm, ctx.pathParams.key ?? "");

/**
 * `POST /json/accounts/password/reset/{key}` (Zulip's
 * `password_reset_confirm`): `new_password`, as a form or a JSON object.
 * Sets it, uses the link and ends the account's sessions; answers `{}`.
 */
export const resetPassword: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  const params = paramsWithJsonBody(ctx.params, ctx.headers["content-type"], ctx.body);
  const { new_password } = parseParams(params, { new_password: param.string() });
  await doResetPassword(ctx.deps, ctx.realm, ctx.pathParams.key ?? "", new_password);
  return {};
};
