import { z } from "zod";
import { checkCreateCustomProfileField } from "../../shared/actions/custom-profile-fields/fields.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { fieldDataSchema } from "./profile-field-params.js";

/** `POST /realm/profile_fields` (https://zulip.com/api/create-custom-profile-field): `{id}` of the new field. */
export const createCustomProfileField: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    name: param.string().default(""),
    hint: param.string().default(""),
    field_type: param.json(z.int()),
    field_data: param.json(fieldDataSchema).default({}),
    display_in_profile_summary: param.bool().default(false),
    required: param.bool().default(false),
    editable_by_user: param.bool().default(true),
  });
  return checkCreateCustomProfileField(ctx.deps, ctx.realm, ctx.user, p);
};
