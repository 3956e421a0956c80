/**
 * The web app's signed-out account pages, picked from the page's path
 * (`location.pathname`): the server serves the same page at each of these
 * paths (`/join/{key}`, `/register`, `/accounts/{page+}` in
 * shared/routes.ts) and the app shows the page the path names instead of
 * the chat. The paths are those of the links the server mails (Zulip's
 * `zproject/urls.py`), with or without their trailing slash.
 */
export type AccountPage =
  /** An invitation's sign-up: a reusable link (`/join/<key>/`) or an email invitation or mail-confirmed sign-up (`/accounts/do_confirm/<key>`). */
  | { kind: "signup"; key: string }
  /** Sign-up by email where the organization allows it (`/register/`): mails a confirmation link. */
  | { kind: "register" }
  /** "Forgot your password?" (`/accounts/password/reset/`): mails a reset link. */
  | { kind: "password-reset-request" }
  /** The mailed reset link (`/accounts/password/reset/<key>/`): a new password, twice. */
  | { kind: "password-reset"; key: string }
  /** The mailed link that confirms a new email address (`/accounts/confirm_new_email/<key>/`). */
  | { kind: "confirm-new-email"; key: string };

const KEYED: readonly [RegExp, "signup" | "password-reset" | "confirm-new-email"][] = [
  [/^\/join\/([^/]+)$/, "signup"],
  [/^\/accounts\/do_confirm\/([^/]+)$/, "signup"],
  [/^\/accounts\/password\/reset\/([^/]+)$/, "password-reset"],
  [/^\/accounts\/confirm_new_email\/([^/]+)$/, "confirm-new-email"],
];

/**
 * The account page a path names, or null for the chat's paths (`/`, and
 * any other the server serves the app at).
 * @param pathname `location.pathname`, e.g. `/join/abcdefghijklmnopqrstuvwx/`
 */
export function accountPageOf(pathname: string): AccountPage | null {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (path === "/register") return { kind: "register" };
  if (path === "/accounts/password/reset") return { kind: "password-reset-request" };
  for (const [pattern, kind] of KEYED) {
    const m = pattern.exec(path);
    if (!m) continue;
    let key: string;
    try {
      key = decodeURIComponent(m[1]!);
    } catch {
      key = m[1]!; // a broken escape: the server will not know this key, and the page says so
    }
    return { kind, key };
  }
  return null;
}

/** The sign-in page's path: the site root, where the app shows the sign-in form to a signed-out visitor. */
export const SIGN_IN_PATH = "/";
/** The "forgot password" page's path, linked from the sign-in page. */
export const PASSWORD_RESET_PATH = "/accounts/password/reset/";
/** The sign-up page's path, linked from the sign-in page when the organization needs no invitation. */
export const REGISTER_PATH = "/register/";
