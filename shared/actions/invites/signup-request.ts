import { generateConfirmationKey, hashConfirmationKey } from "../../auth/confirmation-key.js";
import type { Deps } from "../../deps.js";
import { putConfirmation } from "../../data/confirmations.js";
import { addRateLimitHit, removeRateLimitHit } from "../../data/rate-limits.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { getUserIdByEmail, userById } from "../../data/users.js";
import { isValidEmailAddress, MAX_EMAIL_LENGTH } from "../../domain/email.js";
import { emailProblem, USER_REGISTRATION_VALIDITY_SECONDS, type EmailProblem } from "../../domain/invites.js";
import { judgeRateLimit, slidingWindowPlan } from "../../domain/rate-limit.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { JsonableError, RateLimitedError } from "../../errors.js";
import { queueEmails } from "../../mail/outgoing.js";
import { NOTIFICATION_BOT_EMAIL } from "../users/notification-bot.js";
import { confirmLinkUrl, userRegistrationEmail } from "./emails.js";
import { checkSignupRealm } from "./signup-link.js";

/**
 * The message Zulip's sign-up form (`HomepageForm.clean_email`) gives an
 * address the organization does not take, or null.
 */
export function signupEmailRefusal(email: string, problem: EmailProblem | null): string | null {
  switch (problem) {
    case "invalid":
      return "Enter a valid email address.";
    case "outside_domain":
      return `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
    case "disposable":
      return "Please use your real email address.";
    case "plus":
      return "Email addresses containing + are not allowed in this organization.";
    default:
      return null;
  }
}

/**
 * Counts a mail-sending request against its source address (Zulip's
 * `rate_limit_request_by_ip(request, domain="sends_email_by_ip")`): one
 * UpdateItem; a refused request's hit is taken back (one more), so only
 * allowed requests count. Nothing when rate limits are off.
 * @throws RateLimitedError 429 `RATE_LIMIT_HIT` past `RATE_LIMIT_IP_EMAILS` per window
 */
export async function checkSendsEmailByIp(deps: Deps, sourceIp: string): Promise<void> {
  if (deps.config.RATE_LIMITS === "off") return;
  const rule = { limit: deps.config.RATE_LIMIT_IP_EMAILS, windowSeconds: deps.config.RATE_LIMIT_IP_EMAILS_WINDOW_SECONDS };
  const now = deps.clock.now();
  const plan = slidingWindowPlan(rule, now);
  const counts = await addRateLimitHit(deps, "sends_email_by_ip", sourceIp, plan);
  const verdict = judgeRateLimit(rule, counts ?? new Map(), now, "counted");
  if (!verdict.limited) return;
  await removeRateLimitHit(deps, "sends_email_by_ip", sourceIp, plan);
  throw new RateLimitedError(verdict.secondsToFreedom);
}

/**
 * `POST /json/signup/request` (Zulip's `accounts_home` with
 * `HomepageForm`, then `prepare_activation_url` for
 * `Confirmation.USER_REGISTRATION`): in an organization that does not
 * require invitations, mails a `user_registration` link
 * (`/accounts/do_confirm/<key>`, valid a day) to the address, which
 * `POST /json/signup` turns into an account with that address.
 *
 * Refusals, in Zulip's order: a deactivated organization; an organization
 * that requires invitations; an invalid address, one outside the
 * organization's domains, with `+` where domains are restricted, or a
 * disposable one; an address with an account (active or deactivated) or a
 * system bot's. Then the source address's limit (`RATE_LIMIT_IP_EMAILS`).
 * Writes: one confirmation; one `send_email` job.
 * @param sourceIp the request's source address
 * @throws RealmDeactivatedError 401; JsonableError 400 with the form's messages; RateLimitedError 429
 */
export async function checkSignupRequest(deps: Deps, realmOrNull: RealmRecord | null, rawEmail: string, sourceIp: string): Promise<void> {
  const realm = checkSignupRealm(realmOrNull);
  const email = rawEmail.trim();
  if (email.length > MAX_EMAIL_LENGTH || !isValidEmailAddress(email)) throw new JsonableError("Enter a valid email address.");
  if (realmSettings(realm).invite_required === true) {
    throw new JsonableError(`Please request an invite for ${email} from the organization administrator.`);
  }
  const refusal = signupEmailRefusal(email, emailProblem(realm, email));
  if (refusal) throw new JsonableError(refusal);
  if (email.toLowerCase() === NOTIFICATION_BOT_EMAIL) throw new JsonableError(`${email} is reserved for system bots`);
  const existingId = await getUserIdByEmail(deps, realm.id, email);
  if (existingId !== undefined) {
    const existing = await userById(deps, realm.id, existingId);
    throw new JsonableError(existing && !existing.is_active ? "Account has been deactivated." : `${email} already has an account`);
  }
  await checkSendsEmailByIp(deps, sourceIp);

  const now = Math.floor(deps.clock.now() / 1000);
  const expiresAt = now + USER_REGISTRATION_VALIDITY_SECONDS;
  const key = generateConfirmationKey();
  await putConfirmation(deps, hashConfirmationKey(key), {
    realm_id: realm.id,
    kind: "user_registration",
    object_id: 0,
    email,
    created_at: now,
    expires_at: expiresAt,
  });
  await queueEmails(deps, [userRegistrationEmail(realm, deps.config, email, confirmLinkUrl(realm, deps.config, key), expiresAt, now)]);
}
