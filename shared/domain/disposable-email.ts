/**
 * Disposable-address domains refused when an organization sets
 * `disallow_disposable_email_addresses` (Zulip's `is_disposable_domain`,
 * which reads the `disposable-email-domains` blocklist). This is a short
 * list of the best-known throwaway services, not that whole list: the
 * setting's purpose, keeping sign-ups to addresses someone reads, is met
 * for the common cases without shipping thousands of names in a bundle.
 */
const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  "10minutemail.com",
  "20minutemail.com",
  "discard.email",
  "dispostable.com",
  "emailondeck.com",
  "fakeinbox.com",
  "getairmail.com",
  "getnada.com",
  "guerrillamail.com",
  "guerrillamail.net",
  "guerrillamail.org",
  "guerrillamailblock.com",
  "maildrop.cc",
  "mailinator.com",
  "mailinator.net",
  "mailnesia.com",
  "mintemail.com",
  "mohmal.com",
  "mytemp.email",
  "sharklasers.com",
  "spamgourmet.com",
  "temp-mail.org",
  "tempail.com",
  "tempmail.com",
  "tempmailo.com",
  "throwawaymail.com",
  "trashmail.com",
  "trashmail.de",
  "yopmail.com",
  "yopmail.fr",
]);

/** Whether an address's domain (lower-cased) is a known disposable-mail service, or a subdomain of one. */
export function isDisposableEmailDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) if (DISPOSABLE_DOMAINS.has(labels.slice(i).join("."))) return true;
  return false;
}
