import { z } from "zod";
import { checkAddUserGroup } from "../../shared/actions/user-groups/create.js";
import { groupSettingChangeParam, groupSettingValueParam } from "../../shared/actions/user-groups/group-settings.js";
import { checkDeleteUserGroup, doUpdateUserGroup } from "../../shared/actions/user-groups/update.js";
import { MAX_USER_GROUP_MEMBERS } from "../../shared/domain/user-groups.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { fetchUserGroups } from "../../shared/queries/user-groups/user-groups.js";

/** `GET /user_groups` (https://zulip.com/api/get-user-groups). */
export const getUserGroups: Endpoint = async (ctx) => fetchUserGroups(ctx.deps, ctx.realm, ctx.user);

/** `POST /user_groups/create` (https://zulip.com/api/create-user-group). */
export const createUserGroup: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    name: param.string(),
    description: param.string(),
    members: param.json(z.array(z.int()).max(MAX_USER_GROUP_MEMBERS)),
    can_manage_group: param.json(groupSettingValueParam).optional(),
    can_mention_group: param.json(groupSettingValueParam).optional(),
  });
  await checkAddUserGroup(ctx.deps, ctx.realm, ctx.user, {
    name: p.name,
    description: p.description,
    members: p.members,
    canManageGroup: p.can_manage_group,
    canMentionGroup: p.can_mention_group,
  });
  return {};
};

/** `PATCH /user_groups/{user_group_id}` (https://zulip.com/api/update-user-group). */
export const updateUserGroup: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const p = parseParams(ctx.params, {
    name: param.string().optional(),
    description: param.string().optional(),
    can_manage_group: param.json(groupSettingChangeParam).optional(),
    can_mention_group: param.json(groupSettingChangeParam).optional(),
  });
  await doUpdateUserGroup(ctx.deps, ctx.realm, ctx.user, groupId, {
    name: p.name,
    description: p.description,
    canManageGroup: p.can_manage_group,
    canMentionGroup: p.can_mention_group,
  });
  return {};
};

/** `DELETE /user_groups/{user_group_id}` (https://zulip.com/api/remove-user-group). */
export const removeUserGroup: Endpoint = async (ctx) => {
  await checkDeleteUserGroup(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "user_group_id"));
  return {};
};
