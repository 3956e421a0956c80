import { z } from "zod";
import { checkRemoveOwnProfileData, checkUpdateOwnProfileData } from "../../shared/actions/custom-profile-fields/values.js";
import { MAX_PERSON_PICKER_USERS } from "../../shared/domain/custom-profile-fields.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/** Most entries one `profile_data` / `data` list may carry. */
const MAX_PROFILE_DATA_ENTRIES = 1000;

/** A `profile_data` list: `{id, value}` entries, value a string or a person picker's user IDs (null clears). */
export const profileDataEntriesSchema = z
  .array(
    z
      .object({
        id: z.int(),
        value: z.union([z.string(), z.array(z.int()).max(MAX_PERSON_PICKER_USERS), z.null()]),
      })
      .strict(),
  )
  .max(MAX_PROFILE_DATA_ENTRIES);

/** `PATCH /users/me/profile_data` (Zulip's `update_user_custom_profile_data`): sets or clears the caller's values. */
export const updateUserCustomProfileData: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { data: param.json(profileDataEntriesSchema) });
  await checkUpdateOwnProfileData(ctx.deps, ctx.realm, ctx.user, p.data);
};

/** `DELETE /users/me/profile_data` (Zulip's `remove_user_custom_profile_data`): clears the caller's values of the listed fields. */
export const removeUserCustomProfileData: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { data: param.json(z.array(z.int()).max(MAX_PROFILE_DATA_ENTRIES)) });
  await checkRemoveOwnProfileData(ctx.deps, ctx.realm, ctx.user, p.data);
};
