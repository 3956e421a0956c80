import { z } from "zod";
import { doUpdateUserGroupMembers, doUpdateUserGroupSubgroups } from "../../shared/actions/user-groups/memberships.js";
import { MAX_USER_GROUP_MEMBERS, MAX_USER_GROUP_SUBGROUPS } from "../../shared/domain/user-groups.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import {
  fetchIsUserGroupMember,
  fetchUserGroupMembers,
  fetchUserGroupSubgroups,
} from "../../shared/queries/user-groups/user-groups.js";

const userIds = param.json(z.array(z.int()).max(MAX_USER_GROUP_MEMBERS)).default([]);
const groupIds = param.json(z.array(z.int()).max(MAX_USER_GROUP_SUBGROUPS)).default([]);

/** `POST /user_groups/{user_group_id}/members` (https://zulip.com/api/update-user-group-members). */
export const updateUserGroupMembers: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const p = parseParams(ctx.params, { add: userIds, delete: userIds });
  await doUpdateUserGroupMembers(ctx.deps, ctx.realm, ctx.user, groupId, { add: p.add, delete: p.delete });
  return {};
};

/** `GET /user_groups/{user_group_id}/members` (https://zulip.com/api/get-user-group-members). */
export const getUserGroupMembers: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const p = parseParams(ctx.params, { direct_member_only: param.bool().default(false) });
  return fetchUserGroupMembers(ctx.deps, ctx.realm, ctx.user, groupId, p.direct_member_only);
};

/** `GET /user_groups/{user_group_id}/members/{user_id}` (https://zulip.com/api/get-is-user-group-member). */
export const getIsUserGroupMember: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const userId = pathInt(ctx.pathParams, "user_id");
  const p = parseParams(ctx.params, { direct_member_only: param.bool().default(false) });
  return fetchIsUserGroupMember(ctx.deps, ctx.realm, ctx.user, groupId, userId, p.direct_member_only);
};

/** `POST /user_groups/{user_group_id}/subgroups` (https://zulip.com/api/update-user-group-subgroups). */
export const updateUserGroupSubgroups: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const p = parseParams(ctx.params, { add: groupIds, delete: groupIds });
  await doUpdateUserGroupSubgroups(ctx.deps, ctx.realm, ctx.user, groupId, { add: p.add, delete: p.delete });
  return {};
};

/** `GET /user_groups/{user_group_id}/subgroups` (https://zulip.com/api/get-user-group-subgroups). */
export const getUserGroupSubgroups: Endpoint = async (ctx) => {
  const groupId = pathInt(ctx.pathParams, "user_group_id");
  const p = parseParams(ctx.params, { direct_subgroup_only: param.bool().default(false) });
  return fetchUserGroupSubgroups(ctx.deps, ctx.realm, ctx.user, groupId, p.direct_subgroup_only);
};
