import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { RealmExportRecord } from "../../data/records/realm-export.js";
import type { UserRecord } from "../../data/records/user.js";
import { uploadSpaceUsed } from "../../data/attachments.js";
import { allocateIds } from "../../data/counters.js";
import { listRealmExports, putRealmExport, updateRealmExport } from "../../data/realm-exports.js";
import { listActiveRealmUsers } from "../../data/users.js";
import { isRealmAdmin, Role } from "../../domain/roles.js";
import { JsonableError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { realmExportToWire, type RealmExportWire } from "../../wire/realm-export.js";

/** Exports an organization may start in {@link EXPORT_WINDOW_DAYS} days (Zulip's `EXPORT_LIMIT`). */
export const EXPORT_LIMIT = 5;
/** The window of {@link EXPORT_LIMIT}, in days. */
export const EXPORT_WINDOW_DAYS = 7;
/** Upload space beyond which a public export is refused (Zulip's `MAX_UPLOAD_QUOTA`, 10 GiB). */
export const MAX_EXPORT_UPLOAD_BYTES = 10 * 1024 ** 3;
/** Messages beyond which a public export fails (Zulip's `MAX_MESSAGE_HISTORY`). */
export const MAX_EXPORT_MESSAGES = 250_000;

/**
 * The realm's exports in the API's shape, oldest first (Zulip's
 * `get_realm_exports_serialized`).
 */
async function exportsWire(deps: Deps, realm: RealmRecord): Promise<RealmExportWire[]> {
  return (await listRealmExports(deps, realm.id)).map((r) => realmExportToWire(r, realm, deps.config));
}

/**
 * Sends `realm_export` with every export of the organization to its human
 * administrators (https://zulip.com/api/get-events#realm_export; Zulip's
 * `notify_realm_export`, whose audience is `get_human_admin_users`).
 */
export async function notifyRealmExport(deps: Deps, realm: RealmRecord): Promise<void> {
  const admins = (await listActiveRealmUsers(deps, realm.id)).filter((u) => !u.is_bot && u.role <= Role.ADMINISTRATOR);
  await sendEvent(deps, { type: "realm_export", exports: await exportsWire(deps, realm) }, admins.map((u) => u.user_id));
}

/**
 * `GET /export/realm` (https://zulip.com/api/get-realm-exports; Zulip's
 * `get_realm_exports`): every public data export of the organization.
 * @throws OrganizationAdministratorRequiredError 400 for anyone below an administrator
 */
export async function accessRealmExports(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<RealmExportWire[]> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  return exportsWire(deps, realm);
}

/**
 * `POST /export/realm` (https://zulip.com/api/export-realm; Zulip's
 * `export_realm` view): an administrator starts a public data export.
 * Checked first: at most {@link EXPORT_LIMIT} exports in
 * {@link EXPORT_WINDOW_DAYS} days, and the upload space within
 * {@link MAX_EXPORT_UPLOAD_BYTES}. The export is recorded as pending, the
 * administrators get `realm_export`, and a `realm_export` job writes the
 * tarball (`runRealmExport`).
 * @returns the export's ID
 * @throws OrganizationAdministratorRequiredError 400 for anyone below an administrator
 * @throws JsonableError 400 `Exceeded rate limit.`, `Please request a manual export from <admin email>.`
 */
export async function checkExportRealm(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<number> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const now = deps.clock.now() / 1000;
  const recent = (await listRealmExports(deps, realm.id)).filter((e) => e.export_time >= now - EXPORT_WINDOW_DAYS * 86_400);
  if (recent.length >= EXPORT_LIMIT) throw new JsonableError("Exceeded rate limit.");
  if ((await uploadSpaceUsed(deps, realm.id)) > MAX_EXPORT_UPLOAD_BYTES) {
    throw new JsonableError(`Please request a manual export from ${deps.config.ZULIP_ADMINISTRATOR}.`);
  }
  const record: RealmExportRecord = { id: await allocateIds(deps, "realm_export"), realm_id: realm.id, acting_user_id: user.user_id, export_time: now };
  await putRealmExport(deps, record);
  await notifyRealmExport(deps, realm);
  await deps.deferred.enqueue([{ kind: "realm_export", payload: { realm_id: realm.id, export_id: record.id } }]);
  return record.id;
}

/**
 * `DELETE /export/realm/{export_id}` (Zulip's `delete_realm_export` and
 * `do_delete_realm_export`; not in the OpenAPI file): marks a finished
 * export deleted, so its `export_url` goes, and has a job remove the
 * tarball. The administrators get `realm_export`.
 * @throws OrganizationAdministratorRequiredError 400 for anyone below an administrator
 * @throws JsonableError 400 `Invalid data export ID`, `Export already deleted`,
 *   `Export failed, nothing to delete`, `Export still in progress`
 */
export async function checkDeleteRealmExport(deps: Deps, realm: RealmRecord, user: UserRecord, exportId: number): Promise<void> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const record = (await listRealmExports(deps, realm.id)).find((e) => e.id === exportId);
  if (!record) throw new JsonableError("Invalid data export ID");
  if (record.deleted_timestamp !== undefined) throw new JsonableError("Export already deleted");
  if (record.failed_timestamp !== undefined) throw new JsonableError("Export failed, nothing to delete");
  if (record.export_path === undefined) throw new JsonableError("Export still in progress");
  if (!(await updateRealmExport(deps, realm.id, exportId, { deleted_timestamp: deps.clock.now() / 1000 }, "done"))) {
    throw new JsonableError("Export already deleted");
  }
  await deps.deferred.enqueue([{ kind: "delete_export_tarball", payload: { export_path: record.export_path } }]);
  await notifyRealmExport(deps, realm);
}
