/**
 * `npm start`: runs the whole service locally on http://127.0.0.1:9991.
 * Options: `--data DIR` persists DynamoDB Local to DIR (in memory by default);
 * `--port N` serves on another port; `--dynamodb-port N` moves DynamoDB Local
 * (default 8000, where `npm run manage -- --local` finds it). Environment: see shared/config.ts.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { ensureDefaultOrganization, writeZuliprc } from "../infra/local/bootstrap.js";
import { startLocalStack } from "../infra/local/stack.js";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    port: { type: "string", default: "9991" },
    "dynamodb-port": { type: "string", default: "8000" },
  },
});
const port = Number(values.port);
const stack = await startLocalStack({
  port,
  dataDir: values.data ? resolve(values.data) : undefined,
  dynamoPort: Number(values["dynamodb-port"]),
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "info" },
});
const creds = await ensureDefaultOrganization(stack.deps);
const zuliprc = resolve("zuliprc");
await writeZuliprc(zuliprc, creds);
console.log(`
Zulip-compatible server running.
  Site:     ${creds.site}
  API:      ${creds.site}/api/v1
  Email:    ${creds.email}
  API key:  ${creds.apiKey}${creds.password ? `\n  Password: ${creds.password}` : ""}
  zuliprc:  ${zuliprc}
  DynamoDB: ${stack.deps.config.DYNAMODB_ENDPOINT} (table ${stack.deps.table})

Try: curl -u ${creds.email}:${creds.apiKey} ${creds.site}/api/v1/users/me
`);
const shutdown = async () => {
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
