import { groupHandler } from "../../shared/http/group-handler.js";
import { getOwnUser } from "./get-own-user.js";

/** Endpoints of the `users` group. */
export const endpoints = {
  getOwnUser,
};

export const handler = groupHandler(endpoints);
