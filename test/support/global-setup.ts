// The AWS SDK warns once per process on Node 20, which this project supports.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

import type { TestProject } from "vitest/node";
import { startDynamoDbLocal } from "../../infra/local/dynamodb-local.js";

/**
 * Starts one DynamoDB Local for the whole test run; each test file creates
 * its own table in it (see `local-stack.ts`), so files stay isolated.
 */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  project.provide("dynamoEndpoint", dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
