import { useId, useState } from "preact/hooks";
import type { ApiClient } from "../../api/client.js";
import { getPasswordResetLink, requestPasswordReset, resetPassword } from "../../api/accounts.js";
import { useAction } from "../ui/useAction.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { AccountCard, linkProblemOf, NotReady, useLoaded } from "./AccountCard.js";
import { usePasswordMinLength } from "./SignupPage.js";

/**
 * `/accounts/password/reset/`, "Forgot your password?": the address is
 * mailed a reset link, and the page says "Check your email" whatever the
 * address, as the server never tells whether it has an account. A rate
 * limit's refusal shows in the form.
 */
export function PasswordResetRequestPage(props: { api: ApiClient }) {
  const id = useId();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useAction(async (email: string) => {
    await requestPasswordReset(props.api, email);
    setSentTo(email);
  });
  if (sentTo !== null) {
    return (
      <AccountCard title="Check your email">
        <p class="account-text">
          If <strong>{sentTo}</strong> has an account here, a link to choose a new password is on its way to it. The link works
          once, for a limited time.
        </p>
        <p class="account-links">
          <a href="/">Go to the login page</a>
        </p>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Reset your password">
      <p class="account-text">Enter your email address. We'll send you a link to choose a new password.</p>
      <form
        class="login-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit.run(String(new FormData(e.currentTarget).get("email")));
        }}
      >
        <label for={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="username" required maxLength={254} autoFocus />
        <ErrorNote error={submit.error} />
        <button type="submit" class="button-primary" disabled={submit.pending} aria-busy={submit.pending}>
          Send reset link
        </button>
      </form>
      <p class="account-links">
        <a href="/">Back to the login page</a>
      </p>
    </AccountCard>
  );
}

/**
 * `/accounts/password/reset/<key>/`, the mailed reset link: the account's
 * address, the new password twice (checked equal here, its strength by the
 * server), then "Password changed" with the way to log in. A link that
 * cannot be used shows a page that says why.
 */
export function PasswordResetPage(props: { api: ApiClient; linkKey: string }) {
  const id = useId();
  const minLength = usePasswordMinLength(props.api);
  const [state, setState] = useLoaded(() => getPasswordResetLink(props.api, props.linkKey));
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const submit = useAction(async (password: string) => {
    try {
      await resetPassword(props.api, props.linkKey, password);
    } catch (err) {
      const code = linkProblemOf(err);
      if (code) {
        setState({ status: "problem", code });
        return;
      }
      throw err;
    }
    setDone(true);
  });

  if (done) {
    return (
      <AccountCard title="Password changed">
        <p class="account-text">Your password has been changed. Log in with your new password.</p>
        <p class="account-links">
          <a href="/">Log in</a>
        </p>
      </AccountCard>
    );
  }
  if (state.status !== "ready") return <NotReady state={state} purpose="password-reset" loadingTitle="Choose a new password" />;
  const error = mismatch ? "The passwords do not match." : submit.error;
  return (
    <AccountCard title="Choose a new password">
      <form
        class="login-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const password = String(form.get("new_password"));
          const same = password === String(form.get("confirm_password"));
          setMismatch(!same);
          if (same) void submit.run(password);
        }}
      >
        <label for={`${id}-email`}>Email</label>
        <input id={`${id}-email`} type="email" autoComplete="username" value={state.value.email} readOnly />
        <label for={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          name="new_password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-describedby={`${id}-rule`}
          autoFocus
        />
        <p id={`${id}-rule`} class="field-hint">
          At least {minLength} characters.
        </p>
        <label for={`${id}-confirm`}>Confirm new password</label>
        <input id={`${id}-confirm`} name="confirm_password" type="password" autoComplete="new-password" required />
        <ErrorNote error={error} />
        <button type="submit" class="button-primary" disabled={submit.pending} aria-busy={submit.pending}>
          Change password
        </button>
      </form>
    </AccountCard>
  );
}
