import type { TestProject } from "vitest/node";
import startDynamoDbAndTemplate from "../support/global-setup.js";
import { ensureWebBuild } from "../../scripts/web-build.js";

/**
 * Global setup of the `browser` project: builds the web app when it is
 * missing or older than its sources (so `npm test` passes on a clean
 * clone), then starts DynamoDB Local and seeds the organization template
 * exactly as the e2e project does; each browser test file gets its own copy
 * of the organization on a local stack (`useTestOrg`), which serves
 * `web/dist`.
 */
export default async function setup(project: TestProject) {
  await ensureWebBuild();
  return startDynamoDbAndTemplate(project);
}
