import { useId, useState } from "preact/hooks";
import type { ApiClient } from "../../api/client.js";
import { getSignupSettings, requestSignup } from "../../api/accounts.js";
import { useAction } from "../ui/useAction.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { AccountCard, useLoaded } from "./AccountCard.js";

/**
 * `/register/`, sign-up by email (Zulip's "Sign up" page): where the
 * organization needs no invitation, the address is mailed a link that
 * confirms it and leads to the sign-up form; "Check your email" follows.
 * Where it takes an invitation, the page says so. The server's refusal
 * (an address outside the allowed domains, a disposable one, an existing
 * account) shows in the form.
 */
export function RegisterPage(props: { api: ApiClient }) {
  const id = useId();
  const [settings] = useLoaded(() => getSignupSettings(props.api));
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useAction(async (email: string) => {
    await requestSignup(props.api, email);
    setSentTo(email);
  });

  const org = settings.status === "ready" ? settings.value.realm_name : null;
  if (sentTo !== null) {
    return (
      <AccountCard title="Check your email">
        <p class="account-text">
          We sent a link to <strong>{sentTo}</strong>. Follow it to finish creating your account.
        </p>
        <p class="account-links">
          <a href="/">Go to the login page</a>
        </p>
      </AccountCard>
    );
  }
  if (settings.status === "ready" && settings.value.realm_invite_required) {
    return (
      <AccountCard title="Sign-up is by invitation">
        <p class="account-text">
          Joining {org ?? "this organization"} takes an invitation. Ask one of its administrators to invite you.
        </p>
        <p class="account-links">
          <a href="/">Go to the login page</a>
        </p>
      </AccountCard>
    );
  }
  return (
    <AccountCard title={org ? `Sign up for ${org}` : "Sign up"}>
      <p class="account-text">Enter your email address. We'll send you a link to confirm it and create your account.</p>
      <form
        class="login-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit.run(String(new FormData(e.currentTarget).get("email")));
        }}
      >
        <label for={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={254} autoFocus />
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
