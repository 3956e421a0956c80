// The AWS SDK warns once per process on Node 20, which this project supports.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

import type { TestProject } from "vitest/node";
import { startDynamoDbLocal } from "../../infra/local/dynamodb-local.js";
import { createOrgTemplate, type OrgTemplate } from "./test-org.js";

/**
 * Global setup of the e2e project: starts one DynamoDB Local for the whole
 * run and seeds the organization template in it once. Each test file
 * creates its own table there, starting as a copy of the template (see
 * `local-stack.ts`), so files stay isolated.
 */
export default async function setup(project: TestProject) {
  // A JVM start on a loaded 2-core machine has taken over 30 s: a failed setup fails every e2e file.
  const dynamo = await startDynamoDbLocal();
  try {
    project.provide("orgTemplate", await createOrgTemplate(dynamo.endpoint));
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
  project.provide("dynamoEndpoint", dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    orgTemplate: OrgTemplate;
  }
}
