/**
 * A public data export of an organization (Zulip keeps one as a
 * `RealmAuditLog` row of type `REALM_EXPORTED` whose `extra_data` holds the
 * export's path and timestamps; https://zulip.com/api/get-realm-exports).
 * Times are UNIX seconds with fractions, as Zulip's API gives them.
 */
export interface RealmExportRecord {
  id: number;
  realm_id: number;
  acting_user_id: number;
  /** When it was requested. */
  export_time: number;
  /** Key of the finished tarball in the files bucket (`exports/<realm_id>/<random>/zulip-export-<random>.tar.gz`). */
  export_path?: string;
  /** Size of the finished tarball in bytes. */
  size?: number;
  deleted_timestamp?: number;
  failed_timestamp?: number;
}
