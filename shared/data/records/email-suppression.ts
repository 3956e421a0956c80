/**
 * Why an address is on the suppression list: SES reported a permanent
 * bounce (the mailbox does not exist, the domain refuses mail) or a
 * complaint (the recipient marked a message as spam).
 */
export type SuppressionReason = "bounce" | "complaint";

/**
 * An address the server no longer mails (SES's advice: keep sending to hard
 * bounces and complainers and the account's sending is paused). One per
 * address for the whole deployment, whatever the organization: the bounce
 * or complaint is about the mailbox, not about an organization.
 */
export interface EmailSuppressionRecord {
  /** The address as SES reported it, lower-cased. */
  email: string;
  reason: SuppressionReason;
  /** SES's `bounceType` (`Permanent`) for a bounce; absent for a complaint. */
  bounce_type?: string;
  /** UNIX seconds of the (latest) report. */
  suppressed_at: number;
}
