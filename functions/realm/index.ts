import { groupHandler } from "../../shared/http/group-handler.js";
import {
  getIsUserGroupMember,
  getUserGroupMembers,
  getUserGroupSubgroups,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from "./user-group-members.js";
import { createUserGroup, getUserGroups, removeUserGroup, updateUserGroup } from "./user-groups.js";

/**
 * Endpoints of the `realm` group (organization administration: settings,
 * custom profile fields, user groups, playgrounds, default streams, default
 * settings for new users), keyed by the route table's endpoint names.
 */
export const endpoints = {
  getUserGroups,
  createUserGroup,
  updateUserGroup,
  removeUserGroup,
  updateUserGroupMembers,
  getUserGroupMembers,
  getIsUserGroupMember,
  updateUserGroupSubgroups,
  getUserGroupSubgroups,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints);
