import type { Server } from "node:http";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../shared/config.js";
import { createDeps, systemClock, type WorkerDeps } from "../../shared/deps.js";
import { pushBouncerFromConfig } from "../../shared/push/http-bouncer.js";
import { createFileMailer } from "../../shared/mail/file-mailer.js";
import { senderAddress } from "../../shared/mail/mailer.js";
import { createSqsDeferredWork } from "../../shared/deferred/deferred-work.js";
import { startApiServer } from "./adapter.js";
import { ensureTable, localDynamoDbClient } from "../../shared/data/table-admin.js";
import { freePort, startDynamoDbLocal, type DynamoDbLocal } from "./dynamodb-local.js";
import { createEventsWaker } from "./events-waker.js";
import { startLocalSqs, type LocalSqs } from "./sqs-local.js";
import { createLocalFilesBucket } from "./s3-local.js";
import { createS3FileStore } from "../../shared/storage/file-store.js";
import { siteFilesFromDirectory } from "../../shared/storage/site-files.js";

/** The web app's build in this checkout (`npm run build:web` writes it). */
export const LOCAL_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

export interface LocalStackOptions {
  /** HTTP port of the API. @default a free port */
  port?: number;
  /** Use this running DynamoDB (Local) instead of starting one. */
  dynamoEndpoint?: string;
  /** Port for the DynamoDB Local this stack starts (ignored with `dynamoEndpoint`). @default a free port */
  dynamoPort?: number;
  /** Persist DynamoDB Local's data in this folder (ignored with `dynamoEndpoint`). */
  dataDir?: string;
  /** @default "zulip" */
  tableName?: string;
  /** Environment overrides for the configuration (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /** The built web app served at `/` and `/static/app/` (tests pass a folder of their own). @default {@link LOCAL_WEB_DIST} */
  webDist?: string;
}

export interface LocalStack {
  /** Site URL, e.g. `http://127.0.0.1:9991`. */
  url: string;
  port: number;
  /** The dependencies every group's handler and the deferred-work consumer run with. */
  deps: WorkerDeps;
  /** The folder each email the stack sends is written to as an `.eml` file. */
  mailDir: string;
  sqs: LocalSqs;
  /** Resolves when all deferred work enqueued so far has run. */
  drainDeferredWork(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the whole service on this machine: DynamoDB Local (unless an
 * endpoint is given), the table, an SQS emulator with the deferred-work
 * consumer, and the HTTP adapter in front of the Lambda handlers.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const port = options.port ?? (await freePort());
  let dynamo: DynamoDbLocal | undefined;
  const endpoint = options.dynamoEndpoint ?? (dynamo = await startDynamoDbLocal({ dataDir: options.dataDir, port: options.dynamoPort })).endpoint;
  const tableName = options.tableName ?? "zulip";
  const ddb = localDynamoDbClient(endpoint);
  await ensureTable(ddb, tableName);
  ddb.destroy();

  const sqs = await startLocalSqs();
  // fauxqs serves S3 on the SQS endpoint: one emulator for both.
  const filesBucket = await createLocalFilesBucket(sqs.endpoint);
  const config = loadConfig({
    LOG_LEVEL: "warn",
    // Waiters are woken in-process when events are written; the re-read is only a safety net here.
    LONGPOLL_RECHECK_MS: "5000",
    ...process.env,
    ...options.env,
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    DEFERRED_QUEUE_URL: sqs.queueUrl,
    SQS_ENDPOINT: sqs.endpoint,
    FILES_BUCKET: filesBucket,
    S3_ENDPOINT: sqs.endpoint,
    ROOT_DOMAIN: options.env?.ROOT_DOMAIN ?? `127.0.0.1:${port}`,
    // The camo key: the one configured, else a key of this data directory (kept beside its data,
    // so previews rendered earlier stay valid), else one for this run.
    CAMO_KEY: process.env.CAMO_KEY ?? options.env?.CAMO_KEY ?? localCamoKey(options.dataDir),
    URL_SCHEME: "http",
    AWS_REGION: "us-east-1",
  });
  const waker = createEventsWaker();
  // The mailbox: the configured folder (npm start's `.local-data/mail/`), else one of this run's own.
  const mailDir = config.LOCAL_MAIL_DIR ?? mkdtempSync(path.join(tmpdir(), "zulip-mail-"));
  const deps: WorkerDeps = {
    ...createDeps(config, {
      deferred: createSqsDeferredWork(sqs.client, sqs.queueUrl),
      waitForEvents: waker.waitForEvents,
      eventsWritten: waker.eventsWritten,
      pushBouncer: pushBouncerFromConfig(config),
    }),
    files: createS3FileStore(config),
    mailer: createFileMailer(mailDir, senderAddress(config), systemClock.now),
  };
  sqs.startConsumer(deps);
  const site = {
    log: deps.log,
    site: siteFilesFromDirectory(options.webDist ?? LOCAL_WEB_DIST),
    // Uploads and thumbnails redirect to the emulator's presigned URLs, which the page must be allowed to show.
    fileOrigin: config.S3_ENDPOINT ? new URL(config.S3_ENDPOINT).origin : undefined,
  };
  const server: Server = await startApiServer(port, deps, site, "127.0.0.1", mailDir);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    deps,
    mailDir,
    sqs,
    drainDeferredWork: () => sqs.drain(),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sqs.stop();
      await dynamo?.stop();
    },
  };
}

/** The local camo key: stored in `dataDir` (created once) when the data persists, else new for this run. */
function localCamoKey(dataDir: string | undefined): string {
  const fresh = randomBytes(24).toString("hex");
  if (!dataDir) return fresh;
  const file = path.join(dataDir, "camo-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, fresh, { mode: 0o600 });
  return fresh;
}
