import type { Endpoint } from "../../shared/http/context.js";
import { listCustomProfileFields } from "../../shared/queries/users/custom-profile-fields.js";

/** `GET /realm/profile_fields` (https://zulip.com/api/get-custom-profile-fields): `custom_fields`, in display order. */
export const getCustomProfileFields: Endpoint = async (ctx) => listCustomProfileFields(ctx.deps, ctx.realm.id);
