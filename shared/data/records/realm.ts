/**
 * A realm (organization) as stored. `settings` holds the organization's
 * `realm_*` settings that differ from the defaults in
 * `shared/domain/realm-settings.ts` (keys without the `realm_` prefix).
 */
export interface RealmRecord {
  id: number;
  /** Subdomain; `""` for the deployment's default organization. */
  string_id: string;
  name: string;
  description: string;
  /** UNIX seconds. */
  date_created: number;
  deactivated: boolean;
  settings: Record<string, unknown>;
  /** Organization defaults for new users' personal settings (`PATCH /realm/user_settings_defaults`). */
  user_settings_defaults: Record<string, unknown>;
  /**
   * Set once any user of the realm adds an alert word (never cleared):
   * while absent, sending and editing skip reading recipients' alert words.
   */
  alert_words_in_use?: boolean;
  /**
   * Demo organizations only: when the organization and all its data are
   * deleted (UNIX seconds). Absent for a normal organization.
   */
  demo_organization_scheduled_deletion_date?: number;
  /**
   * Set when the deletion of the organization's data starts (UNIX seconds):
   * the organization is deactivated from then on, and the sweep does not
   * start a second deletion while this one is recent.
   */
  deletion_started_at?: number;
  /** The organization icon: `G` gravatar of the subdomain (absent: `G`), `U` uploaded. */
  icon_source?: "G" | "U";
  /** Bumped on every icon change (cache busting; the uploaded object's key). Absent: 1. */
  icon_version?: number;
  /** The wide logo: `D` Zulip's default (absent: `D`), `U` uploaded. */
  logo_source?: "D" | "U";
  logo_version?: number;
  /** The dark-theme wide logo: `D` or `U`. */
  night_logo_source?: "D" | "U";
  night_logo_version?: number;
  /**
   * The organization's upload quota in MiB (Zulip's `upload_quota_mib`,
   * reported as `realm_upload_quota_mib`); absent or null for none. Set by
   * the operator, not by `PATCH /realm` (Zulip derives it from the plan).
   */
  upload_quota_mib?: number | null;
  /**
   * The organization's identity at Zulip's push notification service
   * (Zulip's `Realm.uuid` and `uuid_owner_secret`): set on first use by
   * `ensureRealmUuid`, never changed.
   */
  uuid?: string;
  uuid_owner_secret?: string;
  /**
   * Whether the push notification service will deliver this organization's
   * notifications (Zulip's `push_notifications_enabled`, as the service last
   * said: its plan and user count). Absent: false.
   */
  push_notifications_enabled?: boolean;
  /** When the service expects to stop delivering (UNIX seconds), or null (Zulip's `push_notifications_enabled_end_timestamp`). */
  push_notifications_enabled_end_timestamp?: number | null;
}
