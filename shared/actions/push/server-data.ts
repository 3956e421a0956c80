import pMap from "p-map";
import type { Deps } from "../../deps.js";
import type { JobOf } from "../../deferred/jobs.js";
import { allocatePushAuditRowIds, getPushCountsSent, putPushCountsSent } from "../../data/push-state.js";
import { ensureRealmUuid } from "../../data/realm-push.js";
import { listRealms } from "../../data/realms.js";
import type { RealmRecord } from "../../data/records/realm.js";
import { listActiveRealmUsers, type ActiveRealmUser } from "../../data/users.js";
import { realmHost, realmUrl } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { Role } from "../../domain/roles.js";
import { JsonableError } from "../../errors.js";
import { ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from "../../version.js";
import {
  PushBouncerRetryLaterError,
  PushBouncerServerCredentialsError,
  type BouncerAuditRow,
  type BouncerRealmInfo,
  type PushBouncer,
} from "../../push/bouncer.js";
import { doSetRealmPushStatus } from "./realm-push-status.js";

/**
 * The `push_bouncer_update` job, as the daily schedule (infra/stack.ts) and
 * `npm run manage -- register-push-server` enqueue it.
 */
export const PUSH_BOUNCER_UPDATE_JOB: JobOf<"push_bouncer_update"> = { kind: "push_bouncer_update", payload: {} };

/** Zulip's `RealmAuditLog.USER_ROLE_CHANGED`: a billing row the service counts users from. */
export const USER_ROLE_CHANGED = 105;

/** Zulip's keys of a billing row's `extra_data`: `ROLE_COUNT`, `ROLE_COUNT_HUMANS`, `ROLE_COUNT_BOTS`. */
const ROLE_COUNT = "10";
const ROLE_COUNT_HUMANS = "11";
const ROLE_COUNT_BOTS = "12";

/** Realms whose users are counted at once (each one Query of the realm's user items). */
const COUNT_CONCURRENCY = 4;

/** What one upload did. */
export interface PushBouncerUpdateResult {
  /** Organizations described to the service. */
  realms: number;
  /** Billing rows sent (organizations whose user counts changed since the last upload). */
  auditRows: number;
}

/**
 * The `extra_data` of a billing row for an organization's active users
 * (system bots left out, as Zulip keeps them in another realm): humans by
 * role (`"100"` owners … `"600"` guests) and the number of bots, under
 * Zulip's `RealmAuditLog.ROLE_COUNT` keys. The service bills and applies
 * the free tier's limits by these counts.
 */
export function roleCountExtraData(users: readonly ActiveRealmUser[]): Record<string, unknown> {
  const humans: Record<string, number> = {};
  for (const role of [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST]) humans[String(role)] = 0;
  let bots = 0;
  for (const user of users) {
    if (user.is_bot) bots += 1;
    else if (String(user.role) in humans) humans[String(user.role)]! += 1;
  }
  return { [ROLE_COUNT]: { [ROLE_COUNT_HUMANS]: humans, [ROLE_COUNT_BOTS]: bots } };
}

/** One organization as the service registers it (Zulip's `get_realms_info_for_push_bouncer`). */
function realmInfo(deps: Deps, realm: RealmRecord, identity: { uuid: string; uuid_owner_secret: string }): BouncerRealmInfo {
  return {
    id: realm.id,
    uuid: identity.uuid,
    uuid_owner_secret: identity.uuid_owner_secret,
    host: realmHost(realm, deps.config),
    url: realmUrl(realm, deps.config),
    name: realm.name,
    // Zulip's org_type values; 0 ("unspecified") unless the organization set one.
    org_type: Number(realmSettings(realm).org_type ?? 0),
    date_created: realm.date_created,
    deactivated: realm.deactivated,
    is_system_bot_realm: false,
    // Email and password is the one way to sign in here (shared/queries/server-settings.ts).
    authentication_methods: { Email: true },
  };
}

/**
 * Zulip's `send_server_data_to_push_bouncer`, run daily and after the
 * server registers: tells the push notification service which
 * organizations exist and how many users each has, and stores what the
 * service answers of each one's plan (`push_notifications_enabled` and its
 * end timestamp, with `realm` `update` events when they change).
 *
 * Steps: the service's last row IDs (`GET server/analytics/status`); every
 * organization not being deleted ({@link listRealms}: one GetItem and one
 * BatchGet per 100), each given its UUID on first use; each one's active
 * users counted (one Query of its user items, 4 at a time); one billing
 * row ({@link USER_ROLE_CHANGED}, `backfilled`, now) for each organization
 * whose counts differ from those last sent (`shared/data/push-state.ts`),
 * IDs above the service's `last_realmauditlog_id`; no usage statistics
 * (`realm_counts`/`installation_counts` empty: Zulip sends them only with
 * `SUBMIT_USAGE_STATISTICS`, and this server collects none); then
 * `POST server/analytics` and the answer's statuses stored.
 *
 * Errors, as Zulip's `maybe_mark_pushes_disabled`: credentials the service
 * refuses, or another refusal, log it and turn every organization's
 * push status off (the apps then say notifications are not working);
 * retry-later errors (network, 5xx, 429) and a concurrent upload's
 * "Data is out of order." are thrown, so that SQS retries the job.
 * @returns what was sent, or undefined when push notifications are not
 *   configured or the service refused
 */
export async function sendServerDataToPushBouncer(deps: Deps): Promise<PushBouncerUpdateResult | undefined> {
  const bouncer = deps.pushBouncer;
  if (!bouncer) return undefined;
  try {
    return await uploadServerData(deps, bouncer);
  } catch (err) {
    await maybeMarkPushesDisabled(deps, bouncer, err);
    return undefined;
  }
}

async function uploadServerData(deps: Deps, bouncer: PushBouncer): Promise<PushBouncerUpdateResult> {
  const status = await bouncer.analyticsStatus();
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const realms = (await listRealms(deps)).filter((realm) => realm.deletion_started_at === undefined);
  const sent = await getPushCountsSent(deps, realms.map((r) => r.id));
  const described = await pMap(
    realms,
    async (realm) => {
      const identity = await ensureRealmUuid(deps, realm);
      const counts = JSON.stringify(roleCountExtraData(await listActiveRealmUsers(deps, realm.id)));
      return { realm, info: realmInfo(deps, realm, identity), counts, changed: sent.get(realm.id) !== counts };
    },
    { concurrency: COUNT_CONCURRENCY },
  );
  const changed = described.filter((d) => d.changed);
  const firstId = changed.length > 0 ? await allocatePushAuditRowIds(deps, changed.length, status.last_realmauditlog_id ?? 0) : 0;
  const rows: BouncerAuditRow[] = changed.map((d, i) => ({
    id: firstId + i,
    realm: d.realm.id,
    event_time: nowSeconds,
    backfilled: true,
    extra_data: JSON.parse(d.counts) as Record<string, unknown>,
    event_type: USER_ROLE_CHANGED,
  }));
  const answer = await bouncer.postAnalytics({
    realm_counts: [],
    installation_counts: [],
    realmauditlog_rows: rows,
    realms: described.map((d) => d.info),
    version: ZULIP_VERSION,
    api_feature_level: ZULIP_FEATURE_LEVEL,
  });
  for (const d of changed) await putPushCountsSent(deps, d.realm.id, d.counts, nowSeconds);
  const byUuid = new Map(described.map((d) => [d.info.uuid, d.realm]));
  for (const [uuid, plan] of Object.entries(answer.realms)) {
    const realm = byUuid.get(uuid);
    if (!realm) {
      deps.log.warn("push notification service: unexpected realm UUID in its answer", { realm_uuid: uuid });
      continue;
    }
    await doSetRealmPushStatus(deps, realm.id, plan.can_push === true, plan.expected_end_timestamp ?? null);
  }
  deps.log.info("push notification service: server data uploaded", { realms: described.length, audit_rows: rows.length });
  return { realms: described.length, auditRows: rows.length };
}

/**
 * Zulip's `maybe_mark_pushes_disabled`: a failure outside this server's
 * control is retried; any other refusal means pushes are likely not
 * working, so every organization's status turns off until an upload
 * succeeds. (Zulip first asks whether pushes worked within the last hour;
 * this server keeps no such record, so a refusal always turns them off.)
 */
async function maybeMarkPushesDisabled(deps: Deps, bouncer: PushBouncer, err: unknown): Promise<void> {
  if (err instanceof PushBouncerRetryLaterError) throw err;
  // Two uploads at once (the daily one and a registration's) race for the row IDs: the loser retries.
  if (err instanceof JsonableError && err.message === "Data is out of order.") throw err;
  if (!(err instanceof JsonableError)) throw err;
  if (err instanceof PushBouncerServerCredentialsError) {
    deps.log.error("push notification service refused this server's credentials: register it (docs/deploying.md)", {
      url: bouncer.url,
      error: err.message,
    });
  } else {
    deps.log.warn("push notification service refused the server data upload", { url: bouncer.url, error: err.message });
  }
  const enabled = (await listRealms(deps)).filter((realm) => realm.push_notifications_enabled === true);
  for (const realm of enabled) await doSetRealmPushStatus(deps, realm.id, false, null);
}

/** Runs the `push_bouncer_update` job (Zulip's `send_server_data_to_push_bouncer`): see {@link sendServerDataToPushBouncer}. */
export async function runPushBouncerUpdate(deps: Deps): Promise<void> {
  await sendServerDataToPushBouncer(deps);
}
