import type { WorkerDeps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { putEmailSuppressions } from "../../data/email-suppressions.js";
import type { SuppressionReason } from "../../data/records/email-suppression.js";

/**
 * What a bounce or complaint means for its addresses, as SES advises: a
 * complaint, or a `Permanent` bounce (no such mailbox, a domain refusing
 * mail), suppresses them; a `Transient` bounce (a full mailbox, a server
 * down) or an `Undetermined` one does not, since the next message may
 * well arrive.
 * @returns the suppression reason, or undefined when the addresses stay mailable
 */
export function suppressionReason(payload: JobPayload<"ses_feedback">): SuppressionReason | undefined {
  if (payload.event_type === "Complaint") return "complaint";
  return payload.bounce_type === "Permanent" ? "bounce" : undefined;
}

/**
 * Runs an `ses_feedback` job: a bounce or complaint SES published for the
 * configuration set (the EventBridge rule of `infra/constructs/mail.ts`
 * puts it on the queue). Permanent bounces and complaints put every
 * recipient on the suppression list (`send_email` then skips them);
 * anything else is only logged. Idempotent: a redelivery writes the same
 * entries again. One BatchWriteItem per 25 addresses.
 */
export async function runSesFeedback(deps: WorkerDeps, payload: JobPayload<"ses_feedback">): Promise<void> {
  const reason = suppressionReason(payload);
  const recipients = payload.recipients.filter((email) => email.length > 0);
  if (!reason) {
    deps.log.info("transient bounce: addresses not suppressed", { bounce_type: payload.bounce_type, count: recipients.length });
    return;
  }
  const suppressed_at = Math.floor(deps.clock.now() / 1000);
  const written = await putEmailSuppressions(
    deps,
    recipients.map((email) => ({ email, reason, ...(payload.bounce_type ? { bounce_type: payload.bounce_type } : {}), suppressed_at })),
  );
  deps.log.info("addresses suppressed", { reason, count: written });
}
