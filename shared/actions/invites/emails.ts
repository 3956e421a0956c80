import type { Config } from "../../config.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { realmUrl } from "../../domain/email.js";
import type { OutgoingEmail } from "../../mail/mailer.js";
import { html, layoutEmail } from "../../mail/template.js";

/**
 * The emails of invitations and sign-up (Zulip's `zerver/emails/invitation`
 * and `confirm_registration` templates, our own wording): plain text and
 * HTML, the organization's name and site, the link, and how long it lasts.
 */

/** The link an email invitation and a mail-confirmed sign-up carry (the contract's `/accounts/do_confirm/<key>`). */
export function confirmLinkUrl(realm: Pick<RealmRecord, "string_id">, config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">, key: string): string {
  return `${realmUrl(realm, config)}/accounts/do_confirm/${key}`;
}

/** The link of a reusable invitation (the contract's `/join/<key>/`, Zulip's `link_url`). */
export function joinLinkUrl(realm: Pick<RealmRecord, "string_id">, config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">, key: string): string {
  return `${realmUrl(realm, config)}/join/${key}/`;
}

/** "in 3 days", "in 5 hours", "in 10 minutes": how long a link lasts from `nowSeconds`, rounded down to its largest unit. */
export function lifetimeText(expiresAt: number, nowSeconds: number): string {
  const minutes = Math.max(1, Math.floor((expiresAt - nowSeconds) / 60));
  const [n, unit] = minutes >= 2 * 1440 ? [Math.floor(minutes / 1440), "day"] : minutes >= 120 ? [Math.floor(minutes / 60), "hour"] : [minutes, "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** The sentence about a link's lifetime, in UTC. */
function expiryLine(expiresAt: number | null, nowSeconds: number): string {
  if (expiresAt === null) return "This invitation does not expire.";
  const when = new Date(expiresAt * 1000).toISOString().replace("T", " ").slice(0, 16);
  return `This link expires in ${lifetimeText(expiresAt, nowSeconds)} (${when} UTC).`;
}

/**
 * The `invitation` email: who invites the person to which organization,
 * the sign-up link and its expiry.
 * @param link `${realmUrl}/accounts/do_confirm/<key>`
 */
export function invitationEmail(
  realm: RealmRecord,
  config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">,
  referrer: Pick<UserRecord, "full_name" | "delivery_email">,
  to: string,
  link: string,
  expiresAt: number | null,
  nowSeconds: number,
): OutgoingEmail {
  const url = realmUrl(realm, config);
  const subject = `${referrer.full_name} invited you to join ${realm.name}`;
  const expiry = expiryLine(expiresAt, nowSeconds);
  const text = [
    `Hello,`,
    ``,
    `${referrer.full_name} (${referrer.delivery_email}) has invited you to join ${realm.name}, a Zulip chat organization at ${url}.`,
    ``,
    `To create your account, open this link:`,
    link,
    ``,
    expiry,
  ].join("\n");
  const body = html`<p>Hello,</p>
<p>${referrer.full_name} (${referrer.delivery_email}) has invited you to join <b>${realm.name}</b>, a Zulip chat organization at ${url}.</p>
<p><a href="${link}" style="display:inline-block;padding:8px 16px;background:#2e6cbb;color:#fff;border-radius:4px;text-decoration:none">Create your account</a></p>
<p style="font-size:13px;color:#666">Or open this link: ${link}<br>${expiry}</p>`;
  return { realm_id: realm.id, template: "invitation", to: { email: to }, ...layoutEmail({ name: realm.name, url }, { subject, text, html: body }) };
}

/**
 * The `user_registration` email: the link that confirms an address and
 * leads to the sign-up form of an organization open to it.
 */
export function userRegistrationEmail(
  realm: RealmRecord,
  config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">,
  to: string,
  link: string,
  expiresAt: number,
  nowSeconds: number,
): OutgoingEmail {
  const url = realmUrl(realm, config);
  const subject = `Create your account in ${realm.name}`;
  const lifetime = `This link expires in ${lifetimeText(expiresAt, nowSeconds)}.`;
  const text = [
    `Hello,`,
    ``,
    `Someone (hopefully you) asked to create an account with this address in ${realm.name} (${url}).`,
    `To confirm the address and finish signing up, open this link:`,
    link,
    ``,
    lifetime,
    `If you did not ask for this, you can ignore this email.`,
  ].join("\n");
  const body = html`<p>Hello,</p>
<p>Someone (hopefully you) asked to create an account with this address in <b>${realm.name}</b> (${url}).</p>
<p><a href="${link}" style="display:inline-block;padding:8px 16px;background:#2e6cbb;color:#fff;border-radius:4px;text-decoration:none">Confirm and sign up</a></p>
<p style="font-size:13px;color:#666">Or open this link: ${link}<br>${lifetime} If you did not ask for this, you can ignore this email.</p>`;
  return { realm_id: realm.id, template: "user_registration", to: { email: to }, ...layoutEmail({ name: realm.name, url }, { subject, text, html: body }) };
}
