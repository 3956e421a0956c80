import { RouteNotFoundError } from "../../shared/errors.js";
import type { SiteEndpoint } from "../../shared/http/site-handler.js";
import { getWebAppPage } from "./web-app.js";

/**
 * The web app's pages below `/accounts/` (the path after it, without the
 * trailing slash the mailed links carry): the confirmation of an invitation
 * or a mail-confirmed sign-up (`do_confirm/<key>`), the "forgot password"
 * form (`password/reset`) and the mailed reset link
 * (`password/reset/<key>`), and the confirmation of a new email address
 * (`confirm_new_email/<key>`), as Zulip's `zproject/urls.py` names them.
 * A key is any one segment here: the app asks the server about it and
 * shows a malformed one as an invalid link.
 */
const ACCOUNT_PAGES: readonly RegExp[] = [
  /^do_confirm\/[^/]+$/,
  /^password\/reset$/,
  /^password\/reset\/[^/]+$/,
  /^confirm_new_email\/[^/]+$/,
];

/** Whether `/accounts/<page>` is one of the web app's pages ({@link ACCOUNT_PAGES}); a trailing slash is allowed. */
export function isAccountPage(page: string): boolean {
  const path = page.endsWith("/") ? page.slice(0, -1) : page;
  return path.length <= 200 && ACCOUNT_PAGES.some((pattern) => pattern.test(path));
}

/**
 * `GET /accounts/{page+}`: the web app's page ({@link getWebAppPage}) at
 * the account pages' paths ({@link isAccountPage}), whose router picks the
 * page from the path. One greedy route stands for the four paths.
 * @throws RouteNotFoundError 404 `Not Found` for any other path below `/accounts/`
 */
export const getAccountPage: SiteEndpoint = async (ctx) => {
  if (!isAccountPage(ctx.pathParams.page ?? "")) throw new RouteNotFoundError();
  return getWebAppPage(ctx);
};
