import { checkUpdateCustomProfileField } from "../../shared/actions/custom-profile-fields/fields.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { fieldDataSchema } from "./profile-field-params.js";

/**
 * `PATCH /realm/profile_fields/{field_id}` (Zulip's `update_realm_custom_profile_field`):
 * changes the passed properties of a field.
 */
export const updateCustomProfileField: Endpoint = async (ctx) => {
  const fieldId = pathInt(ctx.pathParams, "field_id");
  const p = parseParams(ctx.params, {
    name: param.string().optional(),
    hint: param.string().optional(),
    field_data: param.json(fieldDataSchema).optional(),
    display_in_profile_summary: param.bool().optional(),
    required: param.bool().optional(),
    editable_by_user: param.bool().optional(),
  });
  await checkUpdateCustomProfileField(ctx.deps, ctx.realm, ctx.user, fieldId, p);
};
