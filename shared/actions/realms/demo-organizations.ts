import type { Deps } from "../../deps.js";
import type { JobOf } from "../../deferred/jobs.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { getRealm } from "../../data/realms.js";
import {
  claimRealmDeletion,
  dueDemoDeletions,
  putDemoDeletionEntry,
  removeDemoDeletionEntry,
  type DemoDeletionEntry,
} from "../../data/demo-organizations.js";
import { deleteRealmJob } from "./delete-realm.js";

/** Days from a demo organization's creation to its deletion (Zulip's `DEMO_ORG_DEADLINE_DAYS`). */
export const DEMO_ORGANIZATION_LIFETIME_DAYS = 30;

/**
 * A deletion that started this long ago (seconds) without finishing is
 * presumed lost (its job chain ended in the dead-letter queue) and the next
 * sweep starts it again. Larger than any realistic deletion's duration.
 */
export const DELETION_RESTART_AFTER_SECONDS = 86_400;

/**
 * The scheduled deletion date of a demo organization created at `nowMs`
 * (UNIX seconds), {@link DEMO_ORGANIZATION_LIFETIME_DAYS} later.
 */
export function demoOrganizationDeletionDate(nowMs: number): number {
  return Math.floor(nowMs / 1000) + DEMO_ORGANIZATION_LIFETIME_DAYS * 86_400;
}

/** What one sweep did. */
export interface DemoSweepResult {
  /** Organizations whose deletion this sweep started. */
  started: RealmRecord[];
  /** Stale scheduled-deletion entries removed (converted or already deleted organizations). */
  staleEntries: number;
}

/**
 * Settles one due entry against the realm record (the truth): a converted
 * organization (no date) or a rescheduled one (another date) loses the
 * stale entry (a rescheduled one gets an entry for its date); one that is
 * due is marked for deletion and its deletion starts.
 * @returns the realm when its deletion started
 */
async function settleEntry(
  deps: Deps,
  entry: DemoDeletionEntry,
  nowSeconds: number,
  counts: { stale: number },
): Promise<RealmRecord | undefined> {
  const realm = await getRealm(deps, entry.realmId);
  // Absent or null (however a conversion cleared it): not a demo organization any more.
  const stored = realm?.demo_organization_scheduled_deletion_date;
  const date = typeof stored === "number" ? stored : undefined;
  if (!realm || date !== entry.date) {
    if (realm && date !== undefined) await putDemoDeletionEntry(deps, { realmId: realm.id, date });
    await removeDemoDeletionEntry(deps, entry);
    counts.stale += 1;
    if (!realm || date === undefined || date > nowSeconds) return undefined;
  }
  if (!(await claimRealmDeletion(deps, realm.id, nowSeconds, nowSeconds - DELETION_RESTART_AFTER_SECONDS))) return undefined;
  await deps.deferred.enqueue([deleteRealmJob(realm.id)]);
  return realm;
}

/**
 * The sweep (Zulip's `delete_expired_demo_organizations`): every demo
 * organization whose `demo_organization_scheduled_deletion_date` has passed
 * is deactivated and its deletion starts as deferred work
 * (`shared/actions/realms/delete-realm.ts`). Finds them with one Query of
 * the scheduled deletions, then one GetItem and one conditional UpdateItem
 * per due organization; an organization whose deletion is under way is
 * left to it. Runs daily on AWS (EventBridge → the `sweep_demo_organizations`
 * job), on a timer under `npm start`, and once with
 * `npm run manage -- delete-expired-demos`.
 */
export async function doDeleteExpiredDemoOrganizations(deps: Deps): Promise<DemoSweepResult> {
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const counts = { stale: 0 };
  const started: RealmRecord[] = [];
  for (const entry of await dueDemoDeletions(deps, nowSeconds)) {
    const realm = await settleEntry(deps, entry, nowSeconds, counts);
    if (realm) started.push(realm);
  }
  if (started.length > 0 || counts.stale > 0) {
    deps.log.info("demo organization sweep", { started: started.map((r) => r.id), staleEntries: counts.stale });
  }
  return { started, staleEntries: counts.stale };
}

/**
 * The deferred job the daily schedule enqueues (infra/stack.ts): the
 * worker's `sweep_demo_organizations` kind, which runs the sweep below.
 */
export const DEMO_SWEEP_JOB: JobOf<"sweep_demo_organizations"> = { kind: "sweep_demo_organizations", payload: {} };

/** Runs the sweep as a deferred job (`sweep_demo_organizations`, what the EventBridge schedule enqueues). */
export async function runSweepDemoOrganizations(deps: Deps): Promise<void> {
  await doDeleteExpiredDemoOrganizations(deps);
}
