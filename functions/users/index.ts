import { groupHandler } from "../../shared/http/group-handler.js";
import { createUser } from "./create-user.js";
import { deactivateOwnUser } from "./deactivate-own-user.js";
import { deactivateUser } from "./deactivate-user.js";
import { getOwnUser } from "./get-own-user.js";
import { getUser } from "./get-user.js";
import { getUsers } from "./get-users.js";
import { muteUser, unmuteUser } from "./mute-user.js";
import { reactivateUser } from "./reactivate-user.js";
import { updateSettings } from "./update-settings.js";
import { updateUser } from "./update-user.js";

/** Endpoints of the `users` group. */
export const endpoints = {
  getUsers,
  createUser,
  getOwnUser,
  deactivateOwnUser,
  getUser,
  updateUser,
  deactivateUser,
  reactivateUser,
  updateSettings,
  muteUser,
  unmuteUser,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints);
