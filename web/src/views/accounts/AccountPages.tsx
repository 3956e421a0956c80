import type { ApiClient } from "../../api/client.js";
import type { AccountPage } from "../../model/account-pages.js";
import { ConfirmEmailPage } from "./ConfirmEmailPage.js";
import { PasswordResetPage, PasswordResetRequestPage } from "./PasswordResetPages.js";
import { RegisterPage } from "./RegisterPage.js";
import { SignupPage } from "./SignupPage.js";
import "../../styles/accounts.css";

/**
 * The signed-out account page the path names (`model/account-pages.ts`),
 * loaded on demand instead of the chat: sign-up from a link, sign-up by
 * email, password reset (request and link) and the new email's
 * confirmation.
 * @param props.onSignedIn after a sign-up (the session cookies are set): opens the app; by default
 *   replaces the page with `/`, so Back does not return to a used link
 */
export function AccountPages(props: { api: ApiClient; page: AccountPage; onSignedIn?: () => void }) {
  const { page, api } = props;
  switch (page.kind) {
    case "signup":
      return <SignupPage api={api} linkKey={page.key} onSignedIn={props.onSignedIn ?? (() => location.replace("/"))} />;
    case "register":
      return <RegisterPage api={api} />;
    case "password-reset-request":
      return <PasswordResetRequestPage api={api} />;
    case "password-reset":
      return <PasswordResetPage api={api} linkKey={page.key} />;
    case "confirm-new-email":
      return <ConfirmEmailPage api={api} linkKey={page.key} />;
  }
}
