import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "../config.js";

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
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}
