import { createDeps } from "../../shared/deps.js";
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
import { deactivateRealm } from "./deactivate-realm.js";
import { addDefaultStream, removeDefaultStream } from "./default-streams.js";
import { addCodePlayground, removeCodePlayground } from "./playgrounds.js";
import { updateRealm } from "./update-realm.js";
import { updateRealmUserSettingsDefaults } from "./update-user-settings-defaults.js";

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
  updateRealm,
  deactivateRealm,
  addCodePlayground,
  removeCodePlayground,
  updateRealmUserSettingsDefaults,
  addDefaultStream,
  removeDefaultStream,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
