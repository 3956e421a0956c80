import { loadConfig, type Config } from "./config.js";
import { createDocumentClient, type Store } from "./data/client.js";
import { createLogger, type Logger } from "./logger.js";
import { createDeferredWork, type DeferredWork } from "./deferred/deferred-work.js";
import type { FileStore } from "./storage/file-store.js";

/** Wall clock in milliseconds since the UNIX epoch; replaced by a fake in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Everything an action needs from the outside world, passed explicitly
 * (Powertools style) so that tests can fake time, count DynamoDB round trips
 * or inject failures.
 */
export interface Deps extends Store {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Where work too large for one request goes (SQS on AWS). */
  deferred: DeferredWork;
  /** Where file bytes live (S3 on AWS, the emulator locally): uploads, avatars, emoji. */
  files: FileStore;
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
}

/**
 * Makes the file store of {@link Deps.files}. Only the Lambdas that touch
 * files (the `files` group and the worker) install one, with
 * {@link installFileStore}, so the S3 client is bundled into those two
 * alone; the local stack passes its store as an override.
 */
let fileStoreFactory: ((config: Config) => FileStore) | undefined;

/** Installs the file store factory of this process (a Lambda's `index.ts`, once at load). */
export function installFileStore(factory: (config: Config) => FileStore): void {
  fileStoreFactory = factory;
}

/** The file store of a Lambda that installed none: every use is a bug in the code's grouping. */
const NO_FILE_STORE: FileStore = {
  put: () => Promise.reject(new Error("No file store in this function")),
  get: () => Promise.reject(new Error("No file store in this function")),
  delete: () => Promise.reject(new Error("No file store in this function")),
  presignGet: () => Promise.reject(new Error("No file store in this function")),
};

/**
 * Builds the default dependencies from configuration (once per Lambda cold start).
 * @param overrides replace any member, for tests and the local stack
 */
export function createDeps(config: Config = loadConfig(), overrides: Partial<Deps> = {}): Deps {
  const db = overrides.db ?? createDocumentClient(config);
  const deps: Deps = {
    config,
    db,
    table: config.TABLE_NAME,
    clock: systemClock,
    log: createLogger(config.LOG_LEVEL),
    deferred: undefined as unknown as DeferredWork,
    files: overrides.files ?? fileStoreFactory?.(config) ?? NO_FILE_STORE,
    waitForEvents: (_userIds, timeoutMs) => new Promise((resolve) => setTimeout(resolve, timeoutMs)),
    eventsWritten: () => {},
    ...overrides,
  };
  if (!overrides.deferred) deps.deferred = createDeferredWork(config);
  return deps;
}

let defaultDeps: Deps | undefined;

/** The process-wide dependencies of a Lambda, created lazily on first use. */
export function getDefaultDeps(): Deps {
  defaultDeps ??= createDeps();
  return defaultDeps;
}

/** Replaces the process-wide dependencies (the local stack does this once at start). */
export function setDefaultDeps(deps: Deps): void {
  defaultDeps = deps;
}
