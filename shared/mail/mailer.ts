import type { JobPayload } from "../deferred/jobs.js";
import type { Logger } from "../logger.js";

/**
 * One rendered email to one address, as `send_email` jobs carry it (the
 * schema in `shared/deferred/jobs.ts`): the template's name, the recipient,
 * the subject, plain text and HTML bodies, and optional sender name and
 * reply-to address.
 */
export type OutgoingEmail = JobPayload<"send_email">;

/**
 * What delivers mail: Amazon SES (v2 API) on AWS, `.eml` files in a folder
 * on the local stack. Only the worker holds one (the `send_email` runner),
 * so request Lambdas never load a mail client.
 */
export interface Mailer {
  /**
   * Sends one email from the deploy's sender address.
   * @throws Error when the service refuses it (the job is retried by SQS)
   */
  send(email: OutgoingEmail): Promise<void>;
}

/**
 * The address mail is sent from: `EMAIL_FROM`, else `noreply@` the root
 * domain's host (its port dropped), as Zulip's `NOREPLY_EMAIL_ADDRESS`.
 */
export function senderAddress(config: { EMAIL_FROM?: string; ROOT_DOMAIN: string }): string {
  return config.EMAIL_FROM ?? `noreply@${config.ROOT_DOMAIN.replace(/:\d+$/, "")}`;
}

/**
 * A mailer built on its first send: the worker's bundle then loads the SES
 * client and the MIME writer only when a job mails (as it loads the export
 * writer), not on every cold start.
 * @param load builds the real mailer (a dynamic import)
 */
export function lazyMailer(load: () => Promise<Mailer>): Mailer {
  let mailer: Promise<Mailer> | undefined;
  return {
    async send(email) {
      mailer ??= load().catch((e: unknown) => {
        mailer = undefined;
        throw e;
      });
      await (await mailer).send(email);
    },
  };
}

/** A mailer for code that must never mail (tests of other jobs, the CLI): each send throws. */
export const NO_MAIL: Mailer = {
  async send(email) {
    throw new Error(`No mailer here: cannot send the ${email.template} email`);
  },
};

/**
 * The worker's mailer on a stack deployed without the `email` setting (no
 * SES identity, no permission to send): each email is dropped with an
 * error in the log naming its template, and the job succeeds, so that
 * SQS does not retry what can never be sent and the dead-letter queue
 * (and its alarm) holds only real failures. docs/deploying.md, "Email".
 */
export function unconfiguredMailer(log: Logger): Mailer {
  return {
    async send(email) {
      log.error("email not sent: this deployment has no email settings (docs/deploying.md, \"Email\")", {
        template: email.template,
        realm_id: email.realm_id,
      });
    },
  };
}
