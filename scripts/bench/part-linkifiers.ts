/**
 * The linkifiers part of the bench: what an organization's linkifiers add
 * to `POST /messages` (docs/performance.md, "Linkifiers: rendering cost and
 * round trips").
 *
 * For each count of {@link Sizes.linkifierCounts} (0, 10 and 100 by
 * default: none, a typical set, Zulip's maximum) the organization's
 * linkifier list is replaced through the data layer, then one user sends
 * {@link Sizes.linkifierSends} short messages that one of the linkifiers
 * matches to a {@link LINKIFIERS_SUBSCRIBERS}-subscriber stream, one at a
 * time. The round trips must not depend on the count (the list is one
 * item read beside the send's other lookups); its units and the rendering
 * time do.
 */
import { realmLinkifiers, replaceRealmLinkifiers } from "../../shared/data/linkifiers.js";
import type { LinkifierRecord } from "../../shared/data/records/linkifier.js";
import type { Sizes } from "./args.js";
import { ApiClient } from "./http.js";
import { diff } from "./meter.js";
import { perOpCommands } from "./part-messages.js";
import { dollarsPerThousand, fmtDollars, perRequest, type PerRequest } from "./per-request.js";
import { benchUser, createUsers, subscribeUsers } from "./seed.js";
import { drainDeferred, type BenchStack } from "./setup.js";
import { summarize, type LatencySummary } from "./stats.js";
import { fmt, fmtMs, renderTable } from "./table.js";

/** The stream this part sends to (created at setup). */
export const LINKIFIERS_STREAM = "bench-linkifiers";

/** Subscribers of {@link LINKIFIERS_STREAM} (rows written inside the request). */
export const LINKIFIERS_SUBSCRIBERS = 10;

/** What was measured with one count of linkifiers. */
export interface LinkifierRun {
  linkifiers: number;
  sends: number;
  errors: number;
  latency: LatencySummary;
  /** Request-side work per send (the deferred side does not read linkifiers). */
  work: PerRequest;
  byCommand: Record<string, number>;
  /** Units of the linkifier item's read per send (its GetItem), when the meter saw it apart. */
  getUnits: number;
}

export interface LinkifiersResult {
  subscribers: number;
  runs: LinkifierRun[];
}

/**
 * `count` linkifiers of issue-tracker shape, each with its own prefix
 * (`BENCH<i>-123`), the last one matching the sent content (`#1234`).
 */
export function benchLinkifiers(count: number): LinkifierRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    pattern: i === count - 1 ? "#(?P<id>[0-9]+)" : `BENCH${i}-(?P<id>[0-9]+)`,
    url_template: `https://tracker${i}.example.com/issues/{id}`,
  }));
}

/** Runs the linkifiers part. */
export async function runLinkifiersPart(bench: BenchStack, sizes: Sizes, log: (line: string) => void): Promise<LinkifiersResult> {
  const { stack, meter, realm } = bench;
  const deps = stack.deps;
  const stream = bench.streams.get(LINKIFIERS_STREAM)!;
  const users = await createUsers(deps, realm, "linker", LINKIFIERS_SUBSCRIBERS);
  await subscribeUsers(deps, stream, users);
  const sender = benchUser(users[0]!);
  const api = new ApiClient(stack.url);
  const runs: LinkifierRun[] = [];
  try {
    for (const count of sizes.linkifierCounts) {
      const current = await realmLinkifiers(deps, realm.id, { consistent: true });
      if (!(await replaceRealmLinkifiers(deps, realm.id, current.version, benchLinkifiers(count)))) throw new Error("linkifier list changed under the bench");
      // One unmeasured send: warm caches and code paths for this list.
      await api.call(sender, "POST", "/messages", { type: "stream", to: LINKIFIERS_STREAM, topic: "warm-up", content: "fix #1 please" });
      await drainDeferred(stack, sizes.drainTimeoutMs);
      log(`linkifiers: ${sizes.linkifierSends} sends with ${count} linkifiers`);
      const latencies: number[] = [];
      let errors = 0;
      const before = meter.snapshot();
      for (let i = 0; i < sizes.linkifierSends; i++) {
        const res = await api.call(sender, "POST", "/messages", { type: "stream", to: LINKIFIERS_STREAM, topic: `linkifiers ${count}`, content: `fix #${1000 + i} please` });
        latencies.push(res.ms);
        if (res.status !== 200) errors++;
      }
      const d = diff(meter.snapshot(), before);
      runs.push({
        linkifiers: count,
        sends: sizes.linkifierSends,
        errors,
        latency: summarize(latencies),
        work: perRequest(d.request, sizes.linkifierSends),
        byCommand: d.request.byCommand,
        getUnits: ((d.request.unitsByCommand.GetItemCommand ?? 0) + (d.request.unitsByCommand.GetCommand ?? 0)) / Math.max(1, sizes.linkifierSends),
      });
      await drainDeferred(stack, sizes.drainTimeoutMs);
    }
    return { subscribers: users.length, runs };
  } finally {
    const current = await realmLinkifiers(deps, realm.id, { consistent: true });
    await replaceRealmLinkifiers(deps, realm.id, current.version, []);
    api.close();
  }
}

/** Whether every run made the same round trips per send (rounded to a tenth). */
export function roundTripsConstant(runs: LinkifierRun[]): boolean {
  return new Set(runs.map((r) => r.work.calls.toFixed(1))).size <= 1;
}

/** Renders the linkifiers part's table. */
export function renderLinkifiers(r: LinkifiersResult): string {
  const rows = r.runs.map((run) => [
    run.linkifiers,
    run.sends,
    fmtMs(run.latency.p50),
    fmtMs(run.latency.p90),
    fmt(run.work.calls, 1),
    fmt(run.work.rcu, 1),
    fmt(run.work.wcu, 1),
    fmt(run.getUnits, 1),
    fmtDollars(dollarsPerThousand(run.work)),
    run.errors,
  ]);
  const first = r.runs[0];
  return renderTable(
    `POST /messages with the organization's linkifiers: a short message to ${r.subscribers} subscribers`,
    ["linkifiers", "sends", "p50 ms", "p90 ms", "RT/send", "RCU/send", "WCU/send", "Get RCU/send", "$ per 1,000", "errors"],
    rows,
    [
      "RT: DynamoDB calls in the request (authentication included). Get RCU: the GetItems' units (the linkifier item's among them). $: DynamoDB units at on-demand prices.",
      first ? `calls/send with ${first.linkifiers} linkifiers: ${perOpCommands(first.byCommand, Math.max(1, first.sends))}` : "no run",
      roundTripsConstant(r.runs) ? "Round trips are the same for every count." : "Round trips DIFFER between counts.",
    ],
  );
}
