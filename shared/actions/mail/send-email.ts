import type { WorkerDeps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";

/**
 * Runs a `send_email` job: hands the rendered email to the worker's mailer
 * (Zulip's `email_senders` queue worker). Throwing makes SQS retry it.
 */
export async function runSendEmail(deps: WorkerDeps, payload: JobPayload<"send_email">): Promise<void> {
  await deps.mailer.send(payload);
}
