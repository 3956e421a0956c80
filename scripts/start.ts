/**
 * `npm start`: runs the whole service locally on http://127.0.0.1:9991.
 * Options: `--data DIR` persists DynamoDB Local to DIR (in memory by default);
 * `--port N` serves on another port; `--dynamodb-port N` moves DynamoDB Local
 * (default 8000, where `npm run manage -- --local` finds it). The web app
 * (web/dist) is built first when it is missing or older than its sources. Environment: see shared/config.ts
 * (`DEMO_SWEEP_INTERVAL_SECONDS`: how often expired demo organizations are deleted, default hourly;
 * `RATE_LIMITS=off` turns the rate limits off, e.g. for a load test; `PUSH_NOTIFICATION_BOUNCER_URL`,
 * `ZULIP_ORG_ID` and `ZULIP_ORG_KEY` talk to a push notification service, e.g. `npm run mock-push-bouncer`'s).
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { ensureDefaultOrganization, writeZuliprc } from "../infra/local/bootstrap.js";
import { startLocalStack } from "../infra/local/stack.js";
import { doDeleteExpiredDemoOrganizations } from "../shared/actions/realms/demo-organizations.js";
import { PUSH_BOUNCER_UPDATE_JOB } from "../shared/actions/push/server-data.js";
import { ensureWebBuild, webBuildIsStale } from "./web-build.js";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    port: { type: "string", default: "9991" },
    "dynamodb-port": { type: "string", default: "8000" },
  },
});
const port = Number(values.port);
// The site root serves web/dist: build it on a clean clone or after web/ changed (npm run dev:web reloads on change instead).
if (webBuildIsStale()) {
  console.log("Building the web app (npm run build:web)…");
  await ensureWebBuild();
}
const stack = await startLocalStack({
  port,
  dataDir: values.data ? resolve(values.data) : undefined,
  dynamoPort: Number(values["dynamodb-port"]),
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "info", LOCAL_MAIL_DIR: process.env.LOCAL_MAIL_DIR ?? resolve(".local-data/mail") },
});
const creds = await ensureDefaultOrganization(stack.deps);
const zuliprc = resolve("zuliprc");
await writeZuliprc(zuliprc, creds);
console.log(`
Zulip-compatible server running.
  Site:     ${creds.site}/   (the web app: open it in a browser and sign in)
  API:      ${creds.site}/api/v1
  Email:    ${creds.email}
  API key:  ${creds.apiKey}${creds.password ? `\n  Password: ${creds.password}` : ""}${
    creds.member ? `\n  Second person: ${creds.member.email}, password ${creds.member.password} (sign in from another browser or a private window)` : ""
  }
  zuliprc:  ${zuliprc}
  Mail:     ${stack.mailDir} (each email as an .eml file; listed at ${creds.site}/emails)
  DynamoDB: ${stack.deps.config.DYNAMODB_ENDPOINT} (table ${stack.deps.table})
  Push:     ${
    stack.deps.pushBouncer
      ? `push notifications configured: ${stack.deps.pushBouncer.url} (server ${stack.deps.config.ZULIP_ORG_ID})`
      : "push notifications not configured (PUSH_NOTIFICATION_BOUNCER_URL, ZULIP_ORG_ID, ZULIP_ORG_KEY; npm run mock-push-bouncer)"
  }

Try: curl -u ${creds.email}:${creds.apiKey} ${creds.site}/api/v1/users/me
`);
// The organizations reported to the push notification service once at start (daily on AWS), so that it
// knows them and their plan status is stored; nothing when push notifications are not configured.
if (stack.deps.pushBouncer) await stack.deps.deferred.enqueue([PUSH_BOUNCER_UPDATE_JOB]);
// The demo-organization sweep on a timer (what the daily EventBridge schedule does on AWS).
const sweepSeconds = stack.deps.config.DEMO_SWEEP_INTERVAL_SECONDS;
const sweepTimer =
  sweepSeconds > 0
    ? setInterval(() => {
        doDeleteExpiredDemoOrganizations(stack.deps).catch((e: unknown) =>
          stack.deps.log.error("demo organization sweep failed", { error: e instanceof Error ? e.message : String(e) }),
        );
      }, sweepSeconds * 1000)
    : undefined;
const shutdown = async () => {
  if (sweepTimer) clearInterval(sweepTimer);
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
