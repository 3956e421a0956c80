import { createHash } from "node:crypto";
import { generateConfirmationKey, hashConfirmationKey } from "../../auth/confirmation-key.js";
import { hashPassword } from "../../auth/password.js";
import type { Deps } from "../../deps.js";
import { ConfirmationLinkError, JsonableError } from "../../errors.js";
import { resetUserPassword } from "../../data/account-changes.js";
import { putConfirmation } from "../../data/confirmations.js";
import { clearRateLimitCounts } from "../../data/rate-limits.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { deleteUserSessionItems } from "../../data/sessions.js";
import { userByEmail, userById } from "../../data/users.js";
import { isValidEmailAddress, MAX_EMAIL_LENGTH, realmUrl } from "../../domain/email.js";
import { queueEmails } from "../../mail/outgoing.js";
import { AUTHENTICATION_METHODS } from "../../queries/server-settings.js";
import { isStrongEnoughPassword } from "./validation.js";
import { accessConfirmationLink } from "../accounts/confirmation-link.js";
import { passwordResetEmail, passwordResetNoAccountEmail } from "../accounts/emails.js";
import { checkMailRateLimits } from "../accounts/mail-limits.js";

/**
 * How long a password reset link works: Django's `PASSWORD_RESET_TIMEOUT`
 * default, 259,200 seconds (3 days), which Zulip keeps (its reset links are
 * Django's `default_token_generator` tokens; zproject/ sets no other value).
 */
export const PASSWORD_RESET_TIMEOUT_SECONDS = 3 * 24 * 3600;

/** Longest password a reset sets (Zulip's `RegistrationForm.MAX_PASSWORD_LENGTH`, which its reset form shares). */
export const MAX_PASSWORD_LENGTH = 100;

/**
 * A fingerprint of what a reset link is valid for: the account's password
 * hash and address. Django's reset token is an HMAC over the password hash
 * and email, so a password (or address) change voids every link issued
 * before it; a link stores this and is refused once it no longer matches.
 */
function resetState(user: Pick<UserRecord, "password_hash" | "delivery_email">): string {
  return createHash("sha256").update(`${user.password_hash ?? ""}\n${user.delivery_email}`, "utf8").digest("hex").slice(0, 32);
}

/**
 * `POST /json/accounts/password/reset` (Zulip's `password_reset` view and
 * `ZulipPasswordResetForm.save`): mails a reset link to an active account's
 * address, or, to an address without an active account in the
 * organization, a `password_reset_no_account` email saying so (deactivated
 * accounts included, as Zulip does). The answer is the same in every case,
 * so it never tells whether an account exists; the limits count before the
 * address is looked up, for the same reason.
 *
 * Nothing is sent (the same answer) when the host names no organization, the
 * organization is deactivated, or password login is off (Zulip's
 * `email_auth_enabled`). Accounts without a password get a link too: the
 * reset is how they set one.
 *
 * Work: the limits' UpdateItems, the address's two GetItems, for an account
 * one PutItem (the link, under its key's hash), and one SQS message.
 * @throws JsonableError 400 `Enter a valid email address.` (Django's `EmailField`)
 * @throws RateLimitedError 429 past 2 requests per hour or 5 per day for the
 *   address, or 5 mail-sending requests per day from the source address
 */
export async function doRequestPasswordReset(deps: Deps, realm: RealmRecord | null, rawEmail: string, from: { sourceIp: string }): Promise<void> {
  const email = rawEmail.trim();
  if (email.length > MAX_EMAIL_LENGTH || !isValidEmailAddress(email)) throw new JsonableError("Enter a valid email address.");
  if (!realm || realm.deactivated || !AUTHENTICATION_METHODS.email) return;
  await checkMailRateLimits(deps, { password_reset_form_by_email: email.toLowerCase(), sends_email_by_ip: from.sourceIp });

  const url = realmUrl(realm, deps.config);
  const emailRealm = { id: realm.id, name: realm.name, url };
  const user = await userByEmail(deps, realm.id, email);
  if (!user || !user.is_active || user.is_bot) {
    await queueEmails(deps, [passwordResetNoAccountEmail(emailRealm, email, user !== undefined && !user.is_active && !user.is_bot)]);
    return;
  }
  const key = generateConfirmationKey();
  const now = Math.floor(deps.clock.now() / 1000);
  await putConfirmation(deps, hashConfirmationKey(key), {
    realm_id: realm.id,
    kind: "password_reset",
    object_id: user.user_id,
    email: user.delivery_email,
    created_at: now,
    expires_at: now + PASSWORD_RESET_TIMEOUT_SECONDS,
    state: resetState(user),
  });
  const link = `${url}/accounts/password/reset/${key}/`;
  await queueEmails(deps, [
    passwordResetEmail(emailRealm, { email: user.delivery_email, user_id: user.user_id, name: user.full_name }, link, PASSWORD_RESET_TIMEOUT_SECONDS),
  ]);
}

/**
 * The account a reset link is for, while the link may still be used: not
 * used, not expired, its account active and unchanged since the link was
 * mailed (a later password change, by this or another link or by
 * `PATCH /settings`, voids it, as it voids Django's token). Two GetItems.
 * @throws ConfirmationLinkError 400 `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_USED` /
 *   `CONFIRMATION_EXPIRED` (also for a voided link or a deactivated account)
 */
async function accessPasswordResetLink(deps: Deps, realm: RealmRecord | null, key: string): Promise<{ user: UserRecord; keyHash: string }> {
  const { record, keyHash } = await accessConfirmationLink(deps, realm, key, "password_reset");
  const user = await userById(deps, record.realm_id, record.object_id);
  if (!user || !user.is_active || realm?.deactivated || record.state !== resetState(user)) {
    throw new ConfirmationLinkError("expired");
  }
  return { user, keyHash };
}

/**
 * `GET /json/accounts/password/reset/{key}` (the page of Zulip's
 * `password_reset_confirm`): whose password the link resets.
 * @returns `{email}`: the account's real address (only the mailbox's owner holds the link)
 * @throws ConfirmationLinkError 400 as {@link accessPasswordResetLink}
 */
export async function getPasswordResetLink(deps: Deps, realm: RealmRecord | null, key: string): Promise<{ email: string }> {
  const { user } = await accessPasswordResetLink(deps, realm, key);
  return { email: user.delivery_email };
}

/**
 * `POST /json/accounts/password/reset/{key}` (Zulip's
 * `password_reset_confirm` with `LoggingSetPasswordForm` and
 * `do_change_password`): sets the new password and uses the link in one
 * transaction (compare-and-set on the password hash read, so two uses or a
 * concurrent change cannot both win); then ends every session of the
 * account (Django's session hash changes with the password, which logs out
 * every browser) and clears the account's failed-login count (Zulip's
 * `clear_history` of `RateLimitedAuthenticationByUsername`). The person is
 * not signed in: they sign in with the new password, as Zulip's
 * "password reset complete" page asks. Earlier reset links of the account
 * are void from then on (see {@link accessPasswordResetLink}).
 * @throws ConfirmationLinkError 400 as {@link accessPasswordResetLink}; `CONFIRMATION_USED`
 *   when another use won
 * @throws JsonableError 400 `The password is too weak.`, `Ensure this value has at most 100
 *   characters (it has <n>).`
 */
export async function doResetPassword(deps: Deps, realm: RealmRecord | null, key: string, newPassword: string): Promise<void> {
  const { user, keyHash } = await accessPasswordResetLink(deps, realm, key);
  const length = [...newPassword].length;
  if (length > MAX_PASSWORD_LENGTH) {
    throw new JsonableError(`Ensure this value has at most ${MAX_PASSWORD_LENGTH} characters (it has ${length}).`);
  }
  if (!isStrongEnoughPassword(newPassword)) throw new JsonableError("The password is too weak.");
  const outcome = await resetUserPassword(deps, {
    realmId: user.realm_id,
    userId: user.user_id,
    keyHash,
    expected: { passwordHash: user.password_hash, deliveryEmail: user.delivery_email },
    newPasswordHash: await hashPassword(newPassword, deps.config.PASSWORD_HASH_LOG2_N),
    nowSeconds: Math.floor(deps.clock.now() / 1000),
  });
  if (outcome === "used") throw new ConfirmationLinkError("used");
  if (outcome !== "ok") throw new ConfirmationLinkError("expired");
  await Promise.all([
    deleteUserSessionItems(deps, user.realm_id, user.user_id),
    clearRateLimitCounts(deps, "authenticate_by_username", `${realm!.string_id}:${user.delivery_email.toLowerCase()}`),
  ]);
}
