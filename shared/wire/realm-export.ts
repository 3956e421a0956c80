import type { Config } from "../config.js";
import type { RealmExportRecord } from "../data/records/realm-export.js";
import type { RealmRecord } from "../data/records/realm.js";
import { realmUrl } from "../domain/email.js";

/** A data export as the API gives it (OpenAPI `RealmExport`; https://zulip.com/api/get-realm-exports). */
export interface RealmExportWire {
  id: number;
  acting_user_id: number;
  /** UNIX seconds (with fractions) of the request. */
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  /** Where the tarball downloads from, once finished and until deleted. */
  export_url: string | null;
  pending: boolean;
}

/**
 * The site path of a finished export: `/user_avatars/<object key>` (Zulip's
 * exports live in its avatars namespace, under `exports/`), which answers a
 * redirect to a short-lived presigned URL of the tarball.
 */
export function realmExportPath(objectKey: string): string {
  return `/user_avatars/${objectKey}`;
}

/**
 * One export in the API's shape (Zulip's `get_realm_exports_serialized`):
 * `export_url` only while the tarball exists; `pending` until it is
 * finished, has failed or was deleted.
 */
export function realmExportToWire(record: RealmExportRecord, realm: Pick<RealmRecord, "string_id">, config: Pick<Config, "ROOT_DOMAIN" | "URL_SCHEME">): RealmExportWire {
  const deleted = record.deleted_timestamp ?? null;
  const failed = record.failed_timestamp ?? null;
  const url = record.export_path !== undefined && deleted === null ? `${realmUrl(realm, config)}${realmExportPath(record.export_path)}` : null;
  return {
    id: record.id,
    acting_user_id: record.acting_user_id,
    export_time: record.export_time,
    deleted_timestamp: deleted,
    failed_timestamp: failed,
    export_url: url,
    pending: record.export_path === undefined && deleted === null && failed === null,
  };
}
