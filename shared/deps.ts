import { loadConfig, type Config } from "./config.js";
import { createDocumentClient, type Store } from "./data/client.js";
import { createLogger, type Logger } from "./logger.js";
import { createDeferredWork, type DeferredWork } from "./deferred/deferred-work.js";
import type { FileStore } from "./storage/file-store.js";
import type { SiteFiles } from "./storage/site-files.js";
import type { Mailer } from "./mail/mailer.js";
import type { PushBouncer } from "./push/bouncer.js";

/** Wall clock in milliseconds since the UNIX epoch; replaced by a fake in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Everything an action needs from the outside world, passed explicitly
 * (Powertools style) so that tests can fake time, count DynamoDB round trips
 * or inject failures. Built once per Lambda by its entry (`functions/<group>/index.ts`,
 * `functions/worker/index.ts`), by the local stack, or by a test, and handed
 * down: the group handler puts it in every request's context.
 */
export interface Deps extends Store {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Where work too large for one request goes (SQS on AWS). */
  deferred: DeferredWork;
  /**
   * Resolves when there may be new events for one of the given users, or
   * after `timeoutMs`, whichever is first. On AWS this is a plain sleep
   * (Lambdas cannot signal each other); the local stack wakes waiters as soon
   * as an event is written in the same process. Results are only hints:
   * callers always re-read the table.
   */
  waitForEvents(userIds: number[], timeoutMs: number): Promise<void>;
  /** Called after events are written for these users; the local stack uses it to wake waiters. */
  eventsWritten(userIds: number[]): void;
  /**
   * Zulip's push notification service (`shared/push/`), or undefined when
   * push notifications are not configured (devices are then registered
   * locally only and nothing is sent) or the code at hand never calls it.
   * Only those that call it build it (`pushBouncerFromConfig`): the worker,
   * the `presence` group (device registration, `functions/lambdas/presence.setup.ts`)
   * and the local stack, so no other bundle holds the client.
   */
  pushBouncer?: PushBouncer;
}

/**
 * The dependencies of code that reads or writes file bytes (uploads,
 * avatars, emoji, thumbnails): {@link Deps} and a file store (S3 on AWS, the
 * emulator locally). Only the Lambdas granted the files bucket (the `files`
 * group and the worker) build one, with `createS3FileStore`, so only their
 * bundles hold the S3 client, and a file action called from any other group
 * does not compile.
 */
export interface FilesDeps extends Deps {
  files: FileStore;
}

/**
 * The worker's dependencies: {@link FilesDeps} and the mailer (SES on AWS,
 * `.eml` files locally). Only the worker sends mail: requests queue
 * `send_email` jobs (`shared/mail/outgoing.ts`), so no request Lambda
 * loads a mail client.
 */
export interface WorkerDeps extends FilesDeps {
  mailer: Mailer;
}

/**
 * The dependencies of the `web` group, which serves the built web app's
 * files: a logger and the files, nothing else. It reads no table and
 * authenticates nobody, so its entry (`functions/lambdas/web.setup.ts`)
 * builds no DynamoDB or SQS client and its bundle holds neither.
 */
export interface SiteDeps {
  log: Logger;
  site: SiteFiles;
  /**
   * The origin of the file store's presigned URLs when it is not on `https:`
   * (the local stack's S3 emulator, `http://127.0.0.1:<port>`): the page's
   * policy lets images load from it, as `https:` covers S3 on AWS. Absent on AWS.
   */
  fileOrigin?: string;
}

/**
 * Builds the dependencies from configuration (once per Lambda cold start).
 * @param config defaults to the process environment's ({@link loadConfig})
 * @param overrides replace any member, for tests and the local stack
 */
export function createDeps(config: Config = loadConfig(), overrides: Partial<Deps> = {}): Deps {
  return {
    config,
    db: overrides.db ?? createDocumentClient(config),
    table: config.TABLE_NAME,
    clock: systemClock,
    log: createLogger(config.LOG_LEVEL),
    deferred: overrides.deferred ?? createDeferredWork(config),
    waitForEvents: (_userIds, timeoutMs) => new Promise((resolve) => setTimeout(resolve, timeoutMs)),
    eventsWritten: () => {},
    ...overrides,
  };
}
