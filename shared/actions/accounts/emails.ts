import type { OutgoingEmail } from "../../mail/mailer.js";
import { html, layoutEmail, type EmailRealm } from "../../mail/template.js";

/*
 * The account-security emails (our own wording; Zulip's templates
 * `password_reset`, `confirm_new_email` and `notify_change_in_email` say
 * what each must tell): plain text and HTML, the organization's name and
 * site in each, every interpolated value escaped by `html`.
 */

/** Sender name of the account-security emails (Zulip's `security_email_from_name`). */
const SECURITY_FROM_NAME = "Account security";

/** How a link's validity reads in a sentence: `3 days`, `24 hours`, `90 minutes`. */
export function describeDuration(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? "24 hours" : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function email(realm: EmailRealm & { id: number }, template: string, to: OutgoingEmail["to"], content: Parameters<typeof layoutEmail>[1]): OutgoingEmail {
  return { realm_id: realm.id, template, to, ...layoutEmail(realm, content), from_name: SECURITY_FROM_NAME };
}

/**
 * `password_reset`: the link to choose a new password, for an active account.
 * @param validSeconds how long the link works
 */
export function passwordResetEmail(
  realm: EmailRealm & { id: number },
  to: { email: string; user_id: number; name: string },
  resetUrl: string,
  validSeconds: number,
): OutgoingEmail {
  const subject = `Reset your password for ${realm.name}`;
  const validity = describeDuration(validSeconds);
  return email(realm, "password_reset", to, {
    subject,
    text: [
      `Someone (probably you) asked to reset the password of ${to.email} in ${realm.name} (${realm.url}).`,
      "",
      "To choose a new password, open this link:",
      "",
      resetUrl,
      "",
      `The link works once, for ${validity}. If you did not ask for this, ignore this email: your password stays as it is.`,
    ].join("\n"),
    html: html`<p>Someone (probably you) asked to reset the password of <b>${to.email}</b> in ${realm.name} (<a href="${realm.url}">${realm.url}</a>).</p>
<p><a href="${resetUrl}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;border-radius:4px;text-decoration:none">Choose a new password</a></p>
<p style="font-size:13px;color:#555">Or open this link: <a href="${resetUrl}">${resetUrl}</a></p>
<p>The link works once, for ${validity}. If you did not ask for this, ignore this email: your password stays as it is.</p>`,
  });
}

/**
 * `password_reset_no_account`: someone asked for a reset of an address that
 * has no active account in the organization (Zulip mails the address all
 * the same, saying so; the request's answer never tells).
 * @param deactivated the address belongs to a deactivated account here
 */
export function passwordResetNoAccountEmail(realm: EmailRealm & { id: number }, address: string, deactivated: boolean): OutgoingEmail {
  const subject = `Password reset request for ${realm.name}`;
  const why = deactivated
    ? `The account of ${address} in ${realm.name} has been deactivated, so its password cannot be reset. An administrator of the organization can reactivate it.`
    : `There is no account for ${address} in ${realm.name}, so there is no password to reset.`;
  return email(realm, "password_reset_no_account", { email: address }, {
    subject,
    text: [
      `Someone (possibly you) asked to reset the password of ${address} in ${realm.name} (${realm.url}).`,
      "",
      why,
      "",
      "If you did not ask for this, you can ignore this email.",
    ].join("\n"),
    html: html`<p>Someone (possibly you) asked to reset the password of <b>${address}</b> in ${realm.name} (<a href="${realm.url}">${realm.url}</a>).</p>
<p>${why}</p>
<p>If you did not ask for this, you can ignore this email.</p>`,
  });
}

/**
 * `email_change`: sent to the NEW address, with the link that confirms it
 * (Zulip's `confirm_new_email`).
 */
export function emailChangeEmail(
  realm: EmailRealm & { id: number },
  user: { user_id: number; name: string },
  oldEmail: string,
  newEmail: string,
  confirmUrl: string,
  validSeconds: number,
): OutgoingEmail {
  const subject = `Confirm your new email address for ${realm.name}`;
  const validity = describeDuration(validSeconds);
  return email(realm, "email_change", { email: newEmail, user_id: user.user_id, name: user.name }, {
    subject,
    text: [
      `${user.name} asked to change the email address of their account in ${realm.name} (${realm.url}) from ${oldEmail} to ${newEmail}.`,
      "",
      "To confirm the new address, open this link:",
      "",
      confirmUrl,
      "",
      `The link works once, for ${validity}. Until then the account keeps ${oldEmail}. If you did not ask for this, ignore this email.`,
    ].join("\n"),
    html: html`<p>${user.name} asked to change the email address of their account in ${realm.name} (<a href="${realm.url}">${realm.url}</a>) from <b>${oldEmail}</b> to <b>${newEmail}</b>.</p>
<p><a href="${confirmUrl}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;border-radius:4px;text-decoration:none">Confirm the new address</a></p>
<p style="font-size:13px;color:#555">Or open this link: <a href="${confirmUrl}">${confirmUrl}</a></p>
<p>The link works once, for ${validity}. Until then the account keeps ${oldEmail}. If you did not ask for this, ignore this email.</p>`,
  });
}

/**
 * `email_changed`: sent to the OLD address once a change is confirmed
 * (Zulip's `notify_change_in_email`), so that a change nobody asked for is noticed.
 */
export function emailChangedEmail(
  realm: EmailRealm & { id: number },
  user: { user_id: number; name: string },
  oldEmail: string,
  newEmail: string,
): OutgoingEmail {
  const subject = `The email address of your ${realm.name} account has changed`;
  return email(realm, "email_changed", { email: oldEmail, user_id: user.user_id, name: user.name }, {
    subject,
    text: [
      `The email address of your account in ${realm.name} (${realm.url}) is now ${newEmail}; it was ${oldEmail}.`,
      "",
      "If you did not make this change, contact an administrator of the organization at once.",
    ].join("\n"),
    html: html`<p>The email address of your account in ${realm.name} (<a href="${realm.url}">${realm.url}</a>) is now <b>${newEmail}</b>; it was ${oldEmail}.</p>
<p>If you did not make this change, contact an administrator of the organization at once.</p>`,
  });
}
