import { checkDeleteCustomProfileField } from "../../shared/actions/custom-profile-fields/fields.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /realm/profile_fields/{field_id}` (Zulip's `delete_realm_custom_profile_field`): deletes a field and its values. */
export const deleteCustomProfileField: Endpoint = async (ctx) => {
  await checkDeleteCustomProfileField(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "field_id"));
};
