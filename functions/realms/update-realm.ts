import { checkUpdateRealm, type RealmUpdate } from "../../shared/actions/realms/update-realm.js";
import { requireRealmAdmin } from "../../shared/access/user.js";
import type { Endpoint } from "../../shared/http/context.js";
import { parseParams } from "../../shared/http/params.js";
import { availableVideoChatProviders } from "../../shared/domain/video-calls.js";
import { JsonableError } from "../../shared/errors.js";
import {
  REALM_GROUP_SETTING_PARAMS,
  REALM_SETTING_PARAMS,
  REALM_STREAM_SETTING_PARAMS,
  REALM_TEXT_PARAMS,
} from "./update-realm-params.js";

const SPECS = { ...REALM_TEXT_PARAMS, ...REALM_SETTING_PARAMS, ...REALM_STREAM_SETTING_PARAMS, ...REALM_GROUP_SETTING_PARAMS };

/**
 * `PATCH /realm` (Zulip's `update_realm`; not in the OpenAPI description):
 * organization settings, administrators only (checked before the
 * parameters, as Zulip's `@require_realm_admin`). Answers the changed
 * settings (see `checkUpdateRealm`); parameters this server does not know
 * are listed in `ignored_parameters_unsupported`.
 */
export const updateRealm: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const parsed = parseParams(ctx.params, SPECS);
  const provider = parsed.video_chat_provider;
  // A provider this server knows but has no configuration for (BigBlueButton without a server) is refused, as in Zulip.
  if (provider !== undefined && !Object.values(availableVideoChatProviders(ctx.deps.config)).some((p) => p.id === provider)) {
    throw new JsonableError(`Invalid video_chat_provider ${provider}`);
  }
  const pick = <K extends string>(specs: Record<K, unknown>) =>
    Object.fromEntries(Object.keys(specs).map((k) => [k, (parsed as Record<string, unknown>)[k]]));
  const update: RealmUpdate = {
    name: parsed.name,
    description: parsed.description,
    settings: pick(REALM_SETTING_PARAMS) as RealmUpdate["settings"],
    streams: pick(REALM_STREAM_SETTING_PARAMS) as RealmUpdate["streams"],
    groups: pick(REALM_GROUP_SETTING_PARAMS) as RealmUpdate["groups"],
    ...(parsed.demo_organization_scheduled_deletion_date === null ? { demo_organization_scheduled_deletion_date: null } : {}),
  };
  const data = await checkUpdateRealm(ctx.deps, ctx.realm, ctx.user, update);
  const ignored = [...ctx.params.keys()].filter((k) => !Object.hasOwn(SPECS, k) && k !== "client").sort();
  return ignored.length ? { ...data, ignored_parameters_unsupported: ignored } : data;
};
