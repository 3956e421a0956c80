import { z } from "zod";
import { checkReorderCustomProfileFields } from "../../shared/actions/custom-profile-fields/fields.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { MAX_ORDER_LENGTH } from "./profile-field-params.js";

/** `PATCH /realm/profile_fields` (https://zulip.com/api/reorder-custom-profile-fields): every field's new position. */
export const reorderCustomProfileFields: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { order: param.json(z.array(z.int()).max(MAX_ORDER_LENGTH)) });
  await checkReorderCustomProfileFields(ctx.deps, ctx.realm, ctx.user, p.order);
};
