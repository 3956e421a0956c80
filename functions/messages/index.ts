import { groupHandler } from "../../shared/http/group-handler.js";

/** Endpoints of the `messages` group, keyed by the route table's endpoint names. */
export const endpoints = {};

export const handler = groupHandler(endpoints);
