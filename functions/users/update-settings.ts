import { checkUpdateSettings, checkHumanUser } from "../../shared/actions/users/update-settings.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { USER_SETTING_PARAMS } from "../../shared/http/user-settings-params.js";

const SPECS = {
  full_name: param.string().optional(),
  old_password: param.string().optional(),
  new_password: param.string().optional(),
  email: param.string().optional(),
  ...USER_SETTING_PARAMS,
};

/** Parameters the framework itself reads, never "unsupported". */
const FRAMEWORK_PARAMS = new Set(["client"]);

/**
 * `PATCH /settings` (https://zulip.com/api/update-settings): the caller's name, password,
 * personal settings, and `email` (a confirmation link is mailed to the new
 * address; the address changes once it is followed). Parameters this server
 * does not support are listed in `ignored_parameters_unsupported`, sorted,
 * as Zulip does since feature level 167.
 */
export const updateSettings: Endpoint = async (ctx) => {
  // Zulip's @human_users_only runs before the parameters are looked at.
  checkHumanUser(ctx.user);
  const { full_name, old_password, new_password, email, ...settings } = parseParams(ctx.params, SPECS);
  await checkUpdateSettings(ctx.deps, ctx.realm, ctx.user, { full_name, old_password, new_password, email, settings });
  const ignored = [...ctx.params.keys()].filter((k) => !Object.hasOwn(SPECS, k) && !FRAMEWORK_PARAMS.has(k)).sort();
  return ignored.length ? { ignored_parameters_unsupported: ignored } : {};
};
