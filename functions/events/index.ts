import { groupHandler } from "../../shared/http/group-handler.js";

/** Endpoints of the `events` group, keyed by the route table's endpoint names. */
export const endpoints = {};

export const handler = groupHandler(endpoints);
