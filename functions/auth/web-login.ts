import { checkWebLogin, checkWebLogout } from "../../shared/actions/users/web-login.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { requestCookie } from "../../shared/http/cookies.js";
import { param, parseParams } from "../../shared/http/params.js";
import { paramsWithJsonBody } from "../../shared/http/raw-params.js";
import { WithCookies } from "../../shared/http/response.js";
import {
  checkSameOrigin,
  clearedSessionCookies,
  CSRF_HEADER,
  SESSION_COOKIE,
  sessionCookies,
} from "../../shared/http/session-cookies.js";

/**
 * `POST /accounts/login` (Zulip's `login_page`, the web app's password
 * form): `username` (the email) and `password`, as a form or a JSON object.
 * Answers `{user_id, email}` and sets the `sessionid` and `csrftoken`
 * cookies; refusals are those of `POST /fetch_api_key`, and a post from a
 * foreign `Origin` is refused first (403 `CSRF_FAILED`).
 */
export const webLogin: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  const params = paramsWithJsonBody(ctx.params, ctx.headers["content-type"], ctx.body);
  const p = parseParams(params, { username: param.string(), password: param.string() });
  const login = await checkWebLogin(
    ctx.deps,
    ctx.realm,
    p.username,
    p.password,
    { sourceIp: ctx.sourceIp, subdomain: ctx.subdomain },
    requestCookie(ctx, SESSION_COOKIE),
  );
  return new WithCookies({ user_id: login.user_id, email: login.email }, sessionCookies(ctx, login.sessionId, login.csrfToken));
};

/**
 * `POST /accounts/logout` (Zulip's `logout_view`): ends the session of the
 * `sessionid` cookie (its `X-CSRFToken` required) and deletes both cookies;
 * the same success when there is no session.
 */
export const webLogout: PublicEndpoint = async (ctx) => {
  checkSameOrigin(ctx);
  await checkWebLogout(ctx.deps, requestCookie(ctx, SESSION_COOKIE), ctx.headers[CSRF_HEADER]);
  return new WithCookies({}, clearedSessionCookies(ctx));
};
