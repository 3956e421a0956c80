import { checkDeleteTopic } from "../../shared/actions/messages/delete-topic.js";
import { isRealmAdmin } from "../../shared/domain/roles.js";
import { OrganizationAdministratorRequiredError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/** `POST /streams/{stream_id}/delete_topic` (https://zulip.com/api/delete-topic). */
export const deleteTopic: Endpoint = async (ctx) => {
  // Zulip's `require_realm_admin` runs before its parameters are parsed.
  if (!isRealmAdmin(ctx.user)) throw new OrganizationAdministratorRequiredError();
  const p = parseParams(ctx.params, { topic_name: param.string() });
  return checkDeleteTopic(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "stream_id"), p.topic_name);
};
