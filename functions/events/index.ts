import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { deleteQueue } from "./delete-queue.js";
import { getEvents } from "./get-events.js";
import { registerQueue } from "./register-queue.js";

/** Endpoints of the `events` group, keyed by the route table's endpoint names. */
export const endpoints = { registerQueue, getEvents, deleteQueue };

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
