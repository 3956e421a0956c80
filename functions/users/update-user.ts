import { z } from "zod";
import { checkUpdateUser } from "../../shared/actions/users/update-user.js";
import { ROLE_VALUES } from "../../shared/domain/roles.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { profileDataEntriesSchema } from "./profile-data.js";

/** `PATCH /users/{user_id}` (https://zulip.com/api/update-user): name, role and custom profile field values. */
export const updateUser: Endpoint = async (ctx) => {
  const userId = pathInt(ctx.pathParams, "user_id");
  const p = parseParams(ctx.params, {
    full_name: param.string().optional(),
    role: param.json(z.int().refine((r) => ROLE_VALUES.includes(r), { message: "Invalid role" })).optional(),
    profile_data: param.json(profileDataEntriesSchema).optional(),
  });
  await checkUpdateUser(ctx.deps, ctx.realm, ctx.user, userId, p);
};
