import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { getRealmPresence } from "./get-realm-presence.js";
import { getUserPresence } from "./get-user-presence.js";
import { setTypingStatus } from "./set-typing-status.js";
import { updatePresence } from "./update-presence.js";

/** Endpoints of the `presence` group, keyed by the route table's endpoint names. */
export const endpoints = { updatePresence, getRealmPresence, getUserPresence, setTypingStatus };

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
