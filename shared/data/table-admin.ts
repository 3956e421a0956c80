import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from "./table.js";

/**
 * Table administration for the local stack and the tests (DynamoDB Local):
 * the CDK stack creates the table on AWS from the same layout (`table.ts`).
 */

/**
 * A low-level client for DynamoDB Local at `endpoint` (any credentials are
 * accepted there). The caller destroys it.
 * @param maxAttempts SDK attempts per call @default the SDK's
 */
export function localDynamoDbClient(endpoint: string, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
  });
}

/**
 * Whether a DynamoDB endpoint answers (one ListTables call, no retry).
 * @returns false while it is not up yet
 */
export async function dynamoDbAnswers(endpoint: string): Promise<boolean> {
  const client = localDynamoDbClient(endpoint, 1);
  try {
    await client.send(new ListTablesCommand({}));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * Creates the service's table (and its indexes and TTL) from the shared
 * definition, unless it exists, and waits until it is active.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyNames = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: keyNames.map((AttributeName) => ({ AttributeName, AttributeType: "S" })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: "HASH" },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: "RANGE" },
        ],
        GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: "HASH" },
            { AttributeName: index.sortKey, KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: index.projection },
        })),
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
    return;
  }
  for (let i = 0; i < 100; i++) {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (out.Table?.TableStatus === "ACTIVE") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}
