import { runJob } from "../functions/worker/jobs.js";
import { loadConfig, type Config } from "../shared/config.js";
import { createDeps, systemClock, type WorkerDeps } from "../shared/deps.js";
import { createFileMailer } from "../shared/mail/file-mailer.js";
import { lazySesMailer } from "../shared/mail/deployed-mailer.js";
import { senderAddress } from "../shared/mail/mailer.js";
import { pushBouncerFromConfig } from "../shared/push/http-bouncer.js";
import { createS3FileStore } from "../shared/storage/file-store.js";

/** Where DynamoDB Local listens and which table `npm start` uses; what `--local` means. */
export const LOCAL_ENV = {
  DYNAMODB_ENDPOINT: "http://127.0.0.1:8000",
  TABLE_NAME: "zulip",
  AWS_REGION: "us-east-1",
  ROOT_DOMAIN: "127.0.0.1:9991",
  URL_SCHEME: "http",
  LOCAL_MAIL_DIR: ".local-data/mail",
} as const;

/**
 * The configuration the CLI runs with: `--local` overrides the table and
 * endpoint with {@link LOCAL_ENV}; otherwise the environment as is.
 */
export function cliConfig(local: boolean, env: Record<string, string | undefined>): Config {
  return loadConfig(local ? { ...env, ...LOCAL_ENV } : env);
}

/**
 * Dependencies for a CLI run. Deferred work (large event fan-outs) runs
 * inline: the CLI has no queue consumer, and waiting for it is fine here.
 * Jobs may delete files, so the CLI has the deployment's file store too.
 */
export function cliDeps(config: Config): WorkerDeps {
  const deps: WorkerDeps = {
    ...createDeps(config, {
      deferred: {
        enqueue: async (jobs, options) => {
          // Inline work cannot wait: a delayed job (a scheduled message's delivery) would run at once.
          if ((options?.delaySeconds ?? 0) > 0) throw new Error("The CLI runs deferred work inline and cannot delay it");
          for (const job of jobs) await runJob(deps, job);
        },
      },
      log: { debug() {}, info() {}, warn() {}, error() {} },
      // The CLI registers the server with the push notification service and runs its jobs.
      pushBouncer: pushBouncerFromConfig(config),
    }),
    files: createS3FileStore(config),
    // Mail the CLI's jobs send goes where the deployment's goes: SES, or the local mailbox.
    mailer: config.LOCAL_MAIL_DIR
      ? createFileMailer(config.LOCAL_MAIL_DIR, senderAddress(config), systemClock.now)
      : lazySesMailer(config, systemClock.now),
  };
  return deps;
}

