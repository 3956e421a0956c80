import { realmIconUrl } from "../domain/avatar.js";
import type { Config } from "../config.js";
import type { RealmRecord } from "../data/records/realm.js";

import { realmUrl } from "../domain/email.js";
import { escapeHtmlNumeric } from "../html.js";
import { versionFields } from "../version.js";

/** Authentication backends this server offers: email/password only. */
export const AUTHENTICATION_METHODS = {
  password: true,
  dev: false,
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  "openid connect": false,
} as const;

/**
 * The body of `GET /server_settings` (https://zulip.com/api/get-server-settings):
 * what clients read before logging in
 * (version triple, authentication methods, and the realm of the host when
 * there is one). The Python client gives up when `zulip_version` is missing.
 * @param pushConfigured whether this server can send mobile push notifications: a push
 *   notification service is configured (`pushNotificationsConfigured`; Zulip's `push_notifications_configured`)
 */
export function fetchServerSettings(realm: RealmRecord | null, config: Config, pushConfigured: boolean): Record<string, unknown> {
  const base: Record<string, unknown> = {
    authentication_methods: AUTHENTICATION_METHODS,
    external_authentication_methods: [],
    ...versionFields(),
    push_notifications_enabled: pushConfigured,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
  };
  if (!realm) return base;
  const url = realmUrl(realm, config);
  return {
    ...base,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm),
    realm_description: realm.description ? `<p>${escapeHtmlNumeric(realm.description)}</p>` : "",
    realm_web_public_access_enabled: false,
    ...demoOrganizationFields(realm),
  };
}

/**
 * `demo_organization_scheduled_deletion_date` (UNIX seconds), present
 * exactly when the organization is a demo organization (register's `realm`
 * fetch type, https://zulip.com/api/register-queue, and `GET /server_settings`).
 */
export function demoOrganizationFields(realm: RealmRecord): { demo_organization_scheduled_deletion_date?: number } {
  const date = realm.demo_organization_scheduled_deletion_date;
  // A conversion may store null rather than remove the field: either way not a demo.
  return typeof date === "number" ? { demo_organization_scheduled_deletion_date: date } : {};
}
