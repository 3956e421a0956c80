/**
 * The receipts part of the bench: what `GET /messages/{id}/read_receipts`
 * costs for a message every subscriber of a large stream has read
 * (docs/performance.md, "Read receipts").
 *
 * A stream of {@link Sizes.receiptReaders} subscribers gets one message
 * through `POST /messages` (its rows written by the deferred fan-out);
 * every subscriber's row is then flagged `read` through the data layer's
 * flag update (the path `POST /messages/flags` takes, which keeps the
 * readers index), and the organization's read receipts are turned on.
 * Then one subscriber asks for the receipts {@link Sizes.receiptReads}
 * times, one request at a time.
 */
import { getRealm, updateRealmFields } from "../../shared/data/realms.js";
import { updateUserMessagesFlags, userMessageRowsOf } from "../../shared/data/user-messages.js";
import type { Sizes } from "./args.js";
import { ApiClient } from "./http.js";
import { diff, type MeterDelta } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { benchUser, createUsers, subscribeUsers } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable } from "./table.js";

/** The stream this part reads receipts in (created at setup). */
export const RECEIPTS_STREAM = "bench-receipts";

export interface ReceiptsResult {
  readers: number;
  reads: number;
  /** Users each answer named (every reader but the sender). */
  answered: number;
  errors: number;
  latency: LatencySummary;
  requests: MeterDelta;
}

/** Runs the receipts part. */
export async function runReceiptsPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<ReceiptsResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const stream = bench.streams.get(RECEIPTS_STREAM)!;
  const users = await createUsers(deps, realm, "reader", sizes.receiptReaders);
  await subscribeUsers(deps, stream, users);
  const api = new ApiClient(stack.url);
  try {
    const [sender, requester] = users.map(benchUser);
    const sent = await api.call(sender!, "POST", "/messages", { type: "stream", to: RECEIPTS_STREAM, topic: "receipts", content: "read me" });
    if (sent.status !== 200) throw new Error(`POST /messages: ${sent.status} ${JSON.stringify(sent.body)}`);
    const messageId = sent.body.id as number;
    await drainDeferred(stack, sizes.drainTimeoutMs);
    log(`receipts: flagging the message read for ${users.length} subscribers`);
    const rows = await userMessageRowsOf(deps, messageId, users.map((u) => u.user_id));
    await updateUserMessagesFlags(deps, [...rows.values()], (_row, flags) => (flags.includes("read") ? flags : [...flags, "read"]));
    const stored = (await getRealm(deps, realm.id))!;
    await updateRealmFields(deps, realm.id, { settings: { ...stored.settings, enable_read_receipts: true } });

    log(`receipts: ${sizes.receiptReads} GET /messages/{id}/read_receipts of a message ${users.length} users read`);
    const latencies: number[] = [];
    let errors = 0;
    let answered = 0;
    const before = meter.snapshot();
    for (let i = 0; i < sizes.receiptReads; i++) {
      const res = await api.call(requester!, "GET", `/messages/${messageId}/read_receipts`);
      latencies.push(res.ms);
      if (res.status !== 200) errors++;
      else answered = (res.body.user_ids as number[]).length;
    }
    const requests = diff(meter.snapshot(), before);
    return { readers: users.length, reads: sizes.receiptReads, answered, errors, latency: summarize(latencies), requests };
  } finally {
    api.close();
  }
}

/** Renders the receipts part's table. */
export function renderReceipts(r: ReceiptsResult): string {
  const n = Math.max(1, r.reads);
  return renderTable(
    "GET /messages/{message_id}/read_receipts: a message every subscriber read",
    ["readers", "requests", "p50 ms", "p90 ms", "RT/request", "RCU/request", "user_ids answered", "errors"],
    [[r.readers, r.reads, fmtMs(r.latency.p50), fmtMs(r.latency.p90), fmt(r.requests.all.calls / n, 1), fmt(r.requests.all.rcu / n, 1), r.answered, r.errors]],
    [
      "RT: DynamoDB calls per request (authentication included); the readers' BatchGets run in parallel, one round.",
      `calls/request: ${perOpCommands(r.requests.all.byCommand, n)}`,
    ],
  );
}
