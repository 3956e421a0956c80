/**
 * `npm run mock-push-bouncer [-- --port N]`: the tests' stand-in for Zulip's
 * push notification service (test/support/mock-bouncer.ts), standalone, for
 * trying the push flow on the local stack without Zulip's service: it
 * prints the three variables to start `npm start` with, and each request it
 * answers. Devices it "notifies" get nothing: it only records.
 */
import { parseArgs } from "node:util";
import { startMockBouncer } from "../test/support/mock-bouncer.js";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const bouncer = await startMockBouncer({ port: values.port === undefined ? undefined : Number(values.port) });
const env = Object.entries(bouncer.env)
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");
console.log(`Mock push notification service at ${bouncer.url} (this server is registered).
Start the local stack with it:

  ${env} npm start
`);
let seen = 0;
setInterval(() => {
  for (const r of bouncer.requests.slice(seen)) console.log(`${r.status} ${r.method} ${r.endpoint}`);
  seen = bouncer.requests.length;
}, 500);
const stop = () => void bouncer.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
