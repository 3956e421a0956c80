import { createDeps } from "../../shared/deps.js";
import { groupHandler } from "../../shared/http/group-handler.js";
import { incomingWebhook, verifyIncomingWebhook } from "./incoming-webhook.js";

/**
 * Endpoints of the `webhooks` group: the incoming-webhook endpoint
 * `/external/{integration_name}` that third-party systems post to.
 */
export const endpoints = {
  incomingWebhook,
  verifyIncomingWebhook,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints, createDeps());
