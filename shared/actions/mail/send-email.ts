import type { WorkerDeps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { emailSuppression } from "../../data/email-suppressions.js";

/**
 * Runs a `send_email` job (Zulip's `email_senders` queue worker): hands the
 * rendered email to the worker's mailer, unless its address is on the
 * suppression list (SES reported a permanent bounce or a complaint,
 * `shared/actions/mail/feedback.ts`), in which case the email is dropped
 * and the drop logged: mailing such addresses again is what gets an SES
 * account's sending paused. One GetItem before each send.
 * @throws Error when the mailer refuses the email (SQS retries the job)
 */
export async function runSendEmail(deps: WorkerDeps, payload: JobPayload<"send_email">): Promise<void> {
  const suppressed = await emailSuppression(deps, payload.to.email);
  if (suppressed) {
    deps.log.info("email not sent: address suppressed", {
      template: payload.template,
      realm_id: payload.realm_id,
      user_id: payload.to.user_id,
      reason: suppressed.reason,
      suppressed_at: suppressed.suppressed_at,
    });
    return;
  }
  await deps.mailer.send(payload);
}
