/**
 * `npm run gen:lambdas`: writes each API group's Lambda entry,
 * `functions/lambdas/<group>.ts`, from the route table and the endpoint
 * modules (infra/bundling/lambda-entries.ts explains how).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../infra/bundling.js";
import { LAMBDAS_DIR, lambdaEntrySources } from "../infra/bundling/lambda-entries.js";

for (const [group, source] of Object.entries(lambdaEntrySources(PROJECT_ROOT))) {
  writeFileSync(path.join(PROJECT_ROOT, LAMBDAS_DIR, `${group}.ts`), source);
}
