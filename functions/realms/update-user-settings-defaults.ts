import { checkUpdateRealmUserSettingsDefaults } from "../../shared/actions/realms/user-settings-defaults.js";
import { requireRealmAdmin } from "../../shared/access/user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { USER_SETTING_PARAMS } from "../../shared/http/user-settings-params.js";

/*
 * The personal settings an organization may default: those of `PATCH
 * /settings` except the time zone, the language and the login and
 * marketing emails (Zulip leaves security and consent to each user).
 */
const {
  timezone: _timezone,
  default_language: _defaultLanguage,
  enable_login_emails: _loginEmails,
  enable_marketing_emails: _marketingEmails,
  web_home_view,
  web_escape_navigates_to_home_view,
  ...OTHER_SETTINGS
} = USER_SETTING_PARAMS;

const SPECS = {
  ...OTHER_SETTINGS,
  // The spec's older names (feature level < 219) of the same settings.
  web_home_view: web_home_view.alias("default_view"),
  web_escape_navigates_to_home_view: web_escape_navigates_to_home_view.alias("escape_navigates_to_default_view"),
  // Before feature level 168 a boolean; true meant "always", false "automatic".
  realm_name_in_notifications: param.bool().optional(),
};

/**
 * `PATCH /realm/user_settings_defaults`
 * (https://zulip.com/api/update-realm-user-settings-defaults): administrators
 * only, checked before the parameters (Zulip's `@require_realm_admin`).
 * Parameters this server does not take are listed, sorted, in
 * `ignored_parameters_unsupported`.
 */
export const updateRealmUserSettingsDefaults: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { realm_name_in_notifications, ...settings } = parseParams(ctx.params, SPECS);
  if (realm_name_in_notifications !== undefined && settings.realm_name_in_email_notifications_policy === undefined) {
    settings.realm_name_in_email_notifications_policy = realm_name_in_notifications ? 2 : 1;
  }
  await checkUpdateRealmUserSettingsDefaults(ctx.deps, ctx.realm, ctx.user, settings);
  const known = new Set([...Object.keys(SPECS), "default_view", "escape_navigates_to_default_view", "client"]);
  const ignored = [...ctx.params.keys()].filter((k) => !known.has(k)).sort();
  return ignored.length ? { ignored_parameters_unsupported: ignored } : {};
};
