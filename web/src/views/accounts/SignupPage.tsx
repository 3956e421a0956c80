import { useEffect, useId, useState } from "preact/hooks";
import type { ApiClient } from "../../api/client.js";
import { getSignupLink, getSignupSettings, signUp, type SignupLink } from "../../api/accounts.js";
import { useAction } from "../ui/useAction.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { AccountCard, linkProblemOf, NotReady, useLoaded } from "./AccountCard.js";

/** Zulip's default shortest password, until the server's own rule arrives (`signup_settings`). */
export const DEFAULT_PASSWORD_MIN_LENGTH = 6;

/** The server's password rules for a form's hint and `minLength` (the server's own check still decides). */
export function usePasswordMinLength(api: ApiClient): number {
  const [min, setMin] = useState(DEFAULT_PASSWORD_MIN_LENGTH);
  useEffect(() => {
    let live = true;
    getSignupSettings(api).then(
      (s) => live && typeof s.password_min_length === "number" && setMin(s.password_min_length),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return min;
}

const ROLE_NAMES: Record<number, string> = { 100: "an owner", 200: "an administrator", 300: "a moderator", 600: "a guest" };

/** "You're joining X as an administrator. You'll be subscribed to #a and #b." */
function JoiningNote(props: { link: SignupLink }) {
  const { link } = props;
  const role = ROLE_NAMES[link.invited_as];
  return (
    <div class="account-text">
      <p>
        You're joining <strong>{link.realm_name}</strong>
        {role ? ` as ${role}` : ""}.
      </p>
      {link.streams.length > 0 && (
        <p>
          You'll be subscribed to{" "}
          {link.streams.map((name, i) => (
            <span key={name}>
              {i > 0 && (i === link.streams.length - 1 ? " and " : ", ")}
              <strong>#{name}</strong>
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}

/**
 * The sign-up page of an invitation, a reusable invitation link or a
 * mail-confirmed sign-up (`/join/<key>/`, `/accounts/do_confirm/<key>`):
 * the organization and the invited address (or an email field for a
 * reusable link), full name and password with the password rule; "Sign up"
 * creates the account, which signs the person in, and `onSignedIn` opens
 * the app. A link that cannot be used shows a page that says why.
 */
export function SignupPage(props: { api: ApiClient; linkKey: string; onSignedIn(): void }) {
  const id = useId();
  const minLength = usePasswordMinLength(props.api);
  const [state, setState] = useLoaded(() => getSignupLink(props.api, props.linkKey));
  const submit = useAction(async (fields: { full_name: string; password: string; email?: string }) => {
    try {
      await signUp(props.api, { key: props.linkKey, ...fields });
    } catch (err) {
      // The link was used or revoked since the page opened: say so as the page would have.
      const code = linkProblemOf(err);
      if (code) {
        setState({ status: "problem", code });
        return;
      }
      throw err;
    }
    props.onSignedIn();
  });

  if (state.status !== "ready") return <NotReady state={state} purpose="signup" loadingTitle="Create your account" />;
  const link = state.value;
  return (
    <AccountCard title="Create your account">
      <JoiningNote link={link} />
      <form
        class="login-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          void submit.run({
            full_name: String(form.get("full_name")),
            password: String(form.get("password")),
            email: link.email === null ? String(form.get("email")) : undefined,
          });
        }}
      >
        <label for={`${id}-email`}>Email</label>
        {link.email === null ? (
          <input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={254} autoFocus />
        ) : (
          <input id={`${id}-email`} type="email" autoComplete="username" value={link.email} readOnly />
        )}
        <label for={`${id}-name`}>Full name</label>
        <input id={`${id}-name`} name="full_name" type="text" autoComplete="name" required maxLength={100} autoFocus={link.email !== null} />
        <label for={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-describedby={`${id}-rule`}
        />
        <p id={`${id}-rule`} class="field-hint">
          At least {minLength} characters.
        </p>
        <ErrorNote error={submit.error} />
        <button type="submit" class="button-primary" disabled={submit.pending} aria-busy={submit.pending}>
          Sign up
        </button>
      </form>
      <p class="account-links">
        <span>
          Already have an account? <a href="/">Log in</a>
        </span>
      </p>
    </AccountCard>
  );
}
