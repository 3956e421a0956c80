import type { ApiClient } from "../../api/client.js";
import { confirmNewEmail } from "../../api/accounts.js";
import { AccountCard, NotReady, useLoaded } from "./AccountCard.js";

/**
 * `/accounts/confirm_new_email/<key>/`: confirms the new address as the
 * page opens (one POST; the link alone proves the mailbox) and says what
 * the address now is, with the way back to the app. A link that cannot be
 * used shows a page that says why.
 */
export function ConfirmEmailPage(props: { api: ApiClient; linkKey: string }) {
  const [state] = useLoaded(() => confirmNewEmail(props.api, props.linkKey));
  if (state.status !== "ready") return <NotReady state={state} purpose="email-change" loadingTitle="Confirming your email address" />;
  const email = typeof state.value.email === "string" ? state.value.email : null;
  return (
    <AccountCard title="Email address changed">
      <p class="account-text">
        {email ? (
          <>
            Your email address is now <strong>{email}</strong>.
          </>
        ) : (
          "Your new email address is confirmed."
        )}
      </p>
      <p class="account-links">
        <a href="/">Go to the app</a>
      </p>
    </AccountCard>
  );
}
