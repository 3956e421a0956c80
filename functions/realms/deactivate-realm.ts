import { z } from "zod";
import { checkDeactivateRealm } from "../../shared/actions/realms/deactivate-realm.js";
import { isRealmOwner } from "../../shared/domain/roles.js";
import { OrganizationOwnerRequiredError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

const SPECS = { deletion_delay_days: param.json(z.int().nullable()).optional() };

/**
 * `POST /realm/deactivate` (Zulip's `deactivate_realm`): owners only,
 * checked before the parameters as Zulip's `@require_realm_owner`.
 */
export const deactivateRealm: Endpoint = async (ctx) => {
  if (!isRealmOwner(ctx.user)) throw new OrganizationOwnerRequiredError();
  parseParams(ctx.params, SPECS);
  await checkDeactivateRealm(ctx.deps, ctx.realm, ctx.user);
};
