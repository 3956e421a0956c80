import type { DeferredWork, EnqueueOptions } from "../deferred/deferred-work.js";
import type { OutgoingEmail } from "./mailer.js";

/**
 * Queues rendered emails for the worker's `send_email` runner
 * (`shared/actions/mail/send-email.ts`), one job each, as Zulip's
 * `send_email` hands mail to its `email_senders` queue: the request never
 * waits on the mail service, and a refused send is retried by SQS.
 * @param emails rendered emails (see `shared/mail/template.ts`)
 * @param options.delaySeconds hold them back (0 to 900 seconds)
 * @throws Error when SQS refuses the jobs
 */
export async function queueEmails(deps: { deferred: DeferredWork }, emails: OutgoingEmail[], options?: EnqueueOptions): Promise<void> {
  if (emails.length === 0) return;
  await deps.deferred.enqueue(
    emails.map((payload) => ({ kind: "send_email" as const, payload })),
    options,
  );
}
