import { groupHandler } from "../../shared/http/group-handler.js";
import {
  getIsUserGroupMember,
  getUserGroupMembers,
  getUserGroupSubgroups,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from "./user-group-members.js";
import { createUserGroup, getUserGroups, removeUserGroup, updateUserGroup } from "./user-groups.js";
import { createCustomProfileField } from "./create-custom-profile-field.js";
import { deleteCustomProfileField } from "./delete-custom-profile-field.js";
import { getCustomProfileFields } from "./get-custom-profile-fields.js";
import { reorderCustomProfileFields } from "./reorder-custom-profile-fields.js";
import { updateCustomProfileField } from "./update-custom-profile-field.js";

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
  getCustomProfileFields,
  createCustomProfileField,
  reorderCustomProfileFields,
  updateCustomProfileField,
  deleteCustomProfileField,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints);
