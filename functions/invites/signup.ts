import { z } from "zod";
import { doSignup } from "../../shared/actions/invites/signup.js";
import { checkSignupRequest } from "../../shared/actions/invites/signup-request.js";
import { getSignupInfo } from "../../shared/actions/invites/signup-link.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { requestCookie } from "../../shared/http/cookies.js";
import { param, parseParams } from "../../shared/http/params.js";
import { paramsWithJsonBody } from "../../shared/http/raw-params.js";
import { WithCookies } from "../../shared/http/response.js";
import { checkSameOrigin, SESSION_COOKIE, sessionCookies } from "../../shared/http/session-cookies.js";

/** Bounds of the sign-up form's fields, in characters (a key is 24; Zulip's names stop at 100; a password at 1000 here). */
const MAX_KEY = 100;
const MAX_PASSWORD = 1000;
const MAX_FIELD = 1000;

/**
 * `GET /json/signup/{key}` (the web app's sign-up page, behind
 * `/accounts/do_confirm/<key>` and `/join/<key>/`): what the link allows:
 * `{kind, realm_name, realm_url, email, invited_as, streams}`; refused with
 * 400 `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_EXPIRED` / `CONFIRMATION_USED`.
 */
export const getSignupLink: PublicEndpoint = async (ctx) => {
  return { ...(await getSignupInfo(ctx.deps, ctx.realm, ctx.pathParams.key ?? "")) };
};

/**
 * `POST /json/signup` (form or JSON: `key`, `full_name`, `password`, and
 * `email` for a reusable link): creates the account and signs the person
 * in as `POST /accounts/login` does (the `sessionid` and `csrftoken`
 * cookies; a foreign `Origin` refused first). Answers `{user_id, email}`.
 */
export const signup: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  const params = paramsWithJsonBody(ctx.params, ctx.headers["content-type"], ctx.body);
  const p = parseParams(params, {
    key: param.string(z.string().max(MAX_KEY)),
    full_name: param.string(z.string().max(MAX_FIELD)),
    password: param.string(z.string().max(MAX_PASSWORD)),
    email: param.string(z.string().max(MAX_FIELD)).optional(),
  });
  const result = await doSignup(ctx.deps, ctx.realm, p, requestCookie(ctx, SESSION_COOKIE));
  return new WithCookies({ user_id: result.user_id, email: result.email }, sessionCookies(ctx, result.sessionId, result.csrfToken));
};

/**
 * `POST /json/signup/request` (form or JSON: `email`): in an organization
 * open to sign-up, mails a `user_registration` link to the address.
 * Answers `{}`; refusals carry Zulip's sign-up form messages; 429
 * `RATE_LIMIT_HIT` past the source address's limit.
 */
export const requestSignup: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  const params = paramsWithJsonBody(ctx.params, ctx.headers["content-type"], ctx.body);
  const p = parseParams(params, { email: param.string(z.string().max(MAX_FIELD)) });
  await checkSignupRequest(ctx.deps, ctx.realm, p.email, ctx.sourceIp);
  return {};
};
