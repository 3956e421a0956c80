/**
 * Entry of the load-driver worker thread (started by `drivers.ts`): runs
 * the operations the main thread asks for and answers with their results.
 * Requests: `{ id, op, args }`; answers: `{ id, ok: true, result }` or
 * `{ id, ok: false, error }`.
 */
import { parentPort } from "node:worker_threads";
import { largestResponses } from "./http.js";
import { EventsSession, runGets, runSends } from "./load.js";

let session: EventsSession | undefined;

const ops: Record<string, (args: any) => Promise<unknown>> = {
  send: (args) => runSends(args),
  get: (args) => runGets(args),
  "events.register": async (args) => {
    session = new EventsSession(args.baseUrl);
    return session.register(args.users, args.concurrency);
  },
  "events.start": async () => session!.start(),
  "events.stats": async () => ({ ...session!.stats }),
  "events.deliver": (args) => session!.deliver(args),
  "responses.largest": async () => largestResponses(),
  "events.stop": async () => {
    const stats = await session?.stop();
    session = undefined;
    return stats;
  },
};

parentPort!.on("message", async (msg: { id: number; op: string; args: unknown }) => {
  try {
    const op = ops[msg.op];
    if (!op) throw new Error(`unknown op ${msg.op}`);
    parentPort!.postMessage({ id: msg.id, ok: true, result: await op(msg.args) });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
