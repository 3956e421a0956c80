import { generateConfirmationKey, hashConfirmationKey } from "../../auth/confirmation-key.js";
import type { Deps } from "../../deps.js";
import { ConfirmationLinkError, JsonableError, RealmDeactivatedError, UserDeactivatedError } from "../../errors.js";
import { changeUserDeliveryEmail, setPendingEmailChange } from "../../data/account-changes.js";
import { putConfirmation } from "../../data/confirmations.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { listRealmMembers, SYSTEM_BOT_EMAILS, userByEmail, userById } from "../../data/users.js";
import { avatarUrlFor, mediumAvatarUrlFor } from "../../domain/avatar.js";
import { apiEmail, canSeeDeliveryEmail, isValidEmailAddress, realmUrl } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { queueEmails } from "../../mail/outgoing.js";
import { activeUserIds, notifyRealmUserUpdates } from "./notify.js";
import { accessConfirmationLink } from "../accounts/confirmation-link.js";
import { emailChangedEmail, emailChangeEmail } from "../accounts/emails.js";
import { checkMailRateLimits } from "../accounts/mail-limits.js";

/**
 * How long an email change link works: Zulip's
 * `CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS` (1 day), the validity of its
 * `EMAIL_CHANGE` confirmations.
 */
export const EMAIL_CHANGE_LINK_VALIDITY_SECONDS = 24 * 3600;

/**
 * Zulip's `validate_email_change_request` without the rate limit: may
 * `user` move to `newEmail`? Address rules are those of Zulip's
 * `validate_email_is_valid` with the organization's email validator and
 * `validate_email_not_already_in_realm` (its short messages). Two things
 * this server does not hold are not checked: a list of disposable-mail
 * domains (`disallow_disposable_email_addresses`), and the organization's
 * allowed domains (`realm_domains`; none is stored, so an organization with
 * `emails_restricted_to_domains` accepts no new address, as Zulip does with
 * an empty list). Up to two GetItems (the address's owner).
 * @throws UserDeactivatedError 401 for a deactivated user
 * @throws JsonableError 400 `Email address changes are disabled in this organization.`,
 *   `Invalid address.`, `Email addresses containing + are not allowed.`, `Outside your domain.`,
 *   `Reserved for system bots.`, `Already has an account.`, `Account has been deactivated.`
 */
async function validateEmailChangeRequest(deps: Deps, realm: RealmRecord, user: UserRecord, newEmail: string): Promise<void> {
  if (!user.is_active) throw new UserDeactivatedError();
  const settings = realmSettings(realm);
  if (settings.email_changes_disabled === true && !isRealmAdmin(user)) {
    throw new JsonableError("Email address changes are disabled in this organization.");
  }
  if (!isValidEmailAddress(newEmail)) throw new JsonableError("Invalid address.");
  if (settings.emails_restricted_to_domains === true) {
    const local = newEmail.slice(0, newEmail.lastIndexOf("@"));
    if (local.includes("+")) throw new JsonableError("Email addresses containing + are not allowed.");
    throw new JsonableError("Outside your domain.");
  }
  if (SYSTEM_BOT_EMAILS.has(newEmail.toLowerCase())) throw new JsonableError("Reserved for system bots.");
  const owner = await userByEmail(deps, realm.id, newEmail);
  if (owner) throw new JsonableError(owner.is_active ? "Already has an account." : "Account has been deactivated.");
}

/**
 * The `email` parameter of `PATCH /settings` (Zulip's
 * `json_change_settings`): checks a change of the caller's address and
 * counts it against Zulip's `email_change_by_user` limit (2 per hour, 5 per
 * day). Writes nothing but the limit's counts; {@link doStartEmailChange}
 * does the rest once every other setting of the request is checked.
 * @param rawEmail the parameter as sent; surrounding whitespace is dropped
 * @returns the new address, or undefined when it is the current one (nothing to do)
 * @throws JsonableError 400 as {@link validateEmailChangeRequest}
 * @throws RateLimitedError 429 past the limit
 */
export async function checkEmailChangeRequest(deps: Deps, realm: RealmRecord, user: UserRecord, rawEmail: string): Promise<string | undefined> {
  const newEmail = rawEmail.trim();
  if (newEmail === user.delivery_email) return undefined;
  await validateEmailChangeRequest(deps, realm, user, newEmail);
  await checkMailRateLimits(deps, { email_change_by_user: `${realm.id}:${user.user_id}` });
  return newEmail;
}

/**
 * Zulip's `do_start_email_change_process`: a one-use link, valid for
 * {@link EMAIL_CHANGE_LINK_VALIDITY_SECONDS}, mailed to the NEW address
 * (`email_change`), `${realmUrl}/accounts/confirm_new_email/<key>/`. The
 * account keeps its address until the link is followed; the link replaces
 * any earlier pending one (Zulip revokes earlier requests). One PutItem (the
 * link), one UpdateItem (the user's pending key), one SQS message.
 * Precondition: {@link checkEmailChangeRequest} accepted `newEmail`.
 */
export async function doStartEmailChange(deps: Deps, realm: RealmRecord, user: UserRecord, newEmail: string): Promise<void> {
  const key = generateConfirmationKey();
  const keyHash = hashConfirmationKey(key);
  const now = Math.floor(deps.clock.now() / 1000);
  await putConfirmation(deps, keyHash, {
    realm_id: realm.id,
    kind: "email_change",
    object_id: user.user_id,
    email: newEmail,
    created_at: now,
    expires_at: now + EMAIL_CHANGE_LINK_VALIDITY_SECONDS,
  });
  if (!(await setPendingEmailChange(deps, realm.id, user.user_id, keyHash))) throw new UserDeactivatedError();
  const url = realmUrl(realm, deps.config);
  await queueEmails(deps, [
    emailChangeEmail(
      { id: realm.id, name: realm.name, url },
      { user_id: user.user_id, name: user.full_name },
      user.delivery_email,
      newEmail,
      `${url}/accounts/confirm_new_email/${key}/`,
      EMAIL_CHANGE_LINK_VALIDITY_SECONDS,
    ),
  ]);
}

/**
 * `POST /json/accounts/confirm_new_email/{key}` (Zulip's
 * `confirm_email_change` and `do_change_user_delivery_email`): the link
 * from the new address's mailbox changes the account's `delivery_email`,
 * and with it the API `email` when the user's `email_address_visibility`
 * shows the real address to everyone. The address rules are checked again
 * (an address taken meanwhile, changes disabled meanwhile). One transaction
 * uses the link, changes the user and moves the unique-email item.
 *
 * Events, after the write: `realm_user` `update` `{user_id, delivery_email}`
 * to the active users who may see the real address (the user included);
 * `{user_id, new_email}` to every active user when the API email changed;
 * for a gravatar, the avatar fields (the URL is the address's hash). Then
 * the OLD address is told by mail (`email_changed`).
 * @returns `{email}`: the new address
 * @throws ConfirmationLinkError 400 `CONFIRMATION_NOT_FOUND` / `CONFIRMATION_USED` /
 *   `CONFIRMATION_EXPIRED` (also for a link a newer request replaced)
 * @throws UserDeactivatedError / RealmDeactivatedError 401
 * @throws JsonableError 400 as {@link validateEmailChangeRequest}
 */
export async function doConfirmEmailChange(deps: Deps, realm: RealmRecord | null, key: string): Promise<{ email: string }> {
  const { record, keyHash } = await accessConfirmationLink(deps, realm, key, "email_change");
  const user = await userById(deps, record.realm_id, record.object_id);
  const newEmail = record.email;
  if (!user || !newEmail || user.email_change_key_hash !== keyHash) throw new ConfirmationLinkError("expired");
  if (realm!.deactivated) throw new RealmDeactivatedError();
  await validateEmailChangeRequest(deps, realm!, user, newEmail);

  const outcome = await changeUserDeliveryEmail(deps, {
    realmId: user.realm_id,
    userId: user.user_id,
    keyHash,
    oldEmail: user.delivery_email,
    newEmail,
    nowSeconds: Math.floor(deps.clock.now() / 1000),
  });
  if (outcome === "used") throw new ConfirmationLinkError("used");
  if (outcome === "email_taken") throw new JsonableError("Already has an account.");
  if (outcome !== "ok") throw new ConfirmationLinkError("expired");

  const after: UserRecord = { ...user, delivery_email: newEmail };
  delete after.email_change_key_hash;
  await notifyDeliveryEmailChange(deps, realm!, user, after);
  const url = realmUrl(realm!, deps.config);
  await queueEmails(deps, [
    emailChangedEmail({ id: realm!.id, name: realm!.name, url }, { user_id: user.user_id, name: user.full_name }, user.delivery_email, newEmail),
  ]);
  return { email: newEmail };
}

/** The events of a changed `delivery_email` (see {@link doConfirmEmailChange}). One Query of the realm's members. */
async function notifyDeliveryEmailChange(deps: Deps, realm: RealmRecord, before: UserRecord, after: UserRecord): Promise<void> {
  const members = await listRealmMembers(deps, realm.id);
  const audience = activeUserIds(members);
  const seeing = members.filter((m) => m.is_active && canSeeDeliveryEmail(m, after, realm)).map((m) => m.user_id);
  await notifyRealmUserUpdates(deps, [{ user_id: after.user_id, delivery_email: after.delivery_email }], seeing);
  if (after.avatar_source === "G") {
    await notifyRealmUserUpdates(
      deps,
      [
        {
          user_id: after.user_id,
          avatar_source: after.avatar_source,
          avatar_url: avatarUrlFor(after, { clientGravatar: false, emailVisible: true })!,
          avatar_url_medium: mediumAvatarUrlFor(after),
          avatar_version: after.avatar_version,
        },
      ],
      audience,
    );
  }
  const newApiEmail = apiEmail(after, realm, deps.config);
  if (newApiEmail !== apiEmail(before, realm, deps.config)) {
    await notifyRealmUserUpdates(deps, [{ user_id: after.user_id, new_email: newApiEmail }], audience);
  }
}
