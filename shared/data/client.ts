import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "../config.js";

/**
 * What every data-layer function works on: the document client and the
 * name of the single table. `Deps` (shared/deps.ts) carries both; every data-layer
 * function takes it as its first parameter, named `store`.
 */
export interface Store {
  db: DynamoDBDocumentClient;
  table: string;
}

/**
 * Creates the DynamoDB document client for the configured table.
 * Locally `DYNAMODB_ENDPOINT` points at DynamoDB Local (which accepts any
 * credentials); on AWS it is unset and the Lambda role's credentials are used.
 */
export function createDocumentClient(config: Pick<Config, "AWS_REGION" | "DYNAMODB_ENDPOINT">): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.AWS_REGION,
    ...(config.DYNAMODB_ENDPOINT
      ? { endpoint: config.DYNAMODB_ENDPOINT, credentials: { accessKeyId: "local", secretAccessKey: "local" } }
      : {}),
  });
  const db = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  db.middlewareStack.add(
    (next) => async (args) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(args);
        } catch (err) {
          if (!isTransactionConflict(err) || attempt >= CONFLICT_ATTEMPTS) throw err;
          const base = 10 * 2 ** (attempt - 1);
          await new Promise((resolve) => setTimeout(resolve, base + Math.random() * base));
        }
      }
    },
    { step: "initialize", name: "retryTransactionConflicts" },
  );
  return db;
}

/** Tries of a single-item write that meets a transaction in flight on its item. */
const CONFLICT_ATTEMPTS = 6;

/**
 * Whether a call failed because a TransactWriteItems was writing its item.
 * A PutItem, UpdateItem or DeleteItem then fails with
 * `TransactionConflictException`, which the SDK's standard retry strategy
 * does not retry. Bulk flag changes and message moves run in transactions
 * while single-row flag, reaction and edit writes go on, so the client
 * retries these for every call: a short jittered back-off (10–20 ms,
 * doubling), then the error. Conditions are re-evaluated on each try, so a
 * retried write never overwrites the transaction's result.
 */
function isTransactionConflict(err: unknown): boolean {
  return err instanceof Error && err.name === "TransactionConflictException";
}
