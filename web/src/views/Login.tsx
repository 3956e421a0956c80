import { useEffect, useId, useState } from "preact/hooks";
import { ApiError } from "../api/client.js";
import { logIn, type LoginResult } from "../api/session.js";
import { fetchInviteRequired } from "../api/accounts.js";
import { PASSWORD_RESET_PATH, REGISTER_PATH } from "../model/account-pages.js";

/** Props of {@link Login}. */
export interface LoginProps {
  /** Called once the session cookie is set, with who signed in. */
  onLoggedIn(result: LoginResult): void;
  /** The network (tests pass a fake). */
  fetchImpl?: typeof fetch;
}

/**
 * The organization's name from `GET /api/v1/server_settings`
 * (https://zulip.com/api/get-server-settings), which needs no credentials;
 * the `/json` mirror serves only signed-in calls, hence the `/api/v1` path.
 * @returns null when it cannot be had (offline, an error): the page then says only "Log in"
 */
export async function fetchOrganizationName(fetchImpl: typeof fetch = fetch): Promise<string | null> {
  try {
    const res = await fetchImpl("/api/v1/server_settings", { credentials: "omit" });
    if (!res.ok) return null;
    const body = (await res.json()) as { realm_name?: unknown };
    return typeof body.realm_name === "string" && body.realm_name ? body.realm_name : null;
  } catch {
    return null;
  }
}

/**
 * The message the form shows for a failed sign-in: the server's own words
 * (wrong password, deactivated account or organization), with the wait when
 * it refused for the rate limit (HTTP 429 with `retry-after` in seconds,
 * https://zulip.com/api/rest-error-handling#rate-limit-exceeded), or a network hint.
 */
export function loginErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "NETWORK") return "Could not reach the server. Check your connection and try again.";
    const wait = Number(err.body["retry-after"]);
    if (err.status === 429 && Number.isFinite(wait) && wait > 0) return `${err.message.replace(/([^.!?])$/, "$1.")} Try again in ${Math.ceil(wait)} seconds.`;
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The sign-in page at the site root (Zulip's "Log in" form): email and
 * password, the server's refusal (wrong password, deactivated account or
 * organization, rate limit) shown in the form. It is the page's `<main>`.
 */
export function Login(props: LoginProps) {
  const id = useId();
  const [org, setOrg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Zulip's login page links to sign-up when the organization needs no invitation.
  const [openSignup, setOpenSignup] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchOrganizationName(props.fetchImpl).then((name) => {
      if (!live) return;
      setOrg(name);
      if (name) document.title = `Log in | ${name}`;
    });
    void fetchInviteRequired(props.fetchImpl).then((required) => live && setOpenSignup(required === false));
    return () => {
      live = false;
    };
  }, []);

  return (
    <main class="login-page">
      <div class="login-card">
        <h1>{org ? `Log in to ${org}` : "Log in"}</h1>
        <form
          class="login-form"
          aria-describedby={error ? `${id}-error` : undefined}
          onSubmit={async (e) => {
            e.preventDefault();
            if (busy) return;
            const form = new FormData(e.currentTarget);
            setBusy(true);
            setError(null);
            try {
              const result = await logIn(String(form.get("username")), String(form.get("password")), props.fetchImpl);
              props.onLoggedIn(result);
            } catch (err) {
              setError(loginErrorMessage(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          <label for={`${id}-email`}>Email</label>
          <input id={`${id}-email`} name="username" type="email" autoComplete="username" required autoFocus />
          <label for={`${id}-password`}>Password</label>
          <input id={`${id}-password`} name="password" type="password" autoComplete="current-password" required />
          {error && (
            <p id={`${id}-error`} class="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="button-primary" disabled={busy} aria-busy={busy}>
            Log in
          </button>
        </form>
        <p class="login-links">
          <a href={PASSWORD_RESET_PATH}>Forgot your password?</a>
          {openSignup && (
            <span>
              Don't have an account? <a href={REGISTER_PATH}>Sign up</a>
            </span>
          )}
        </p>
      </div>
    </main>
  );
}
