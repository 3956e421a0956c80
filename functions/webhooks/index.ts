import { groupHandler } from "../../shared/http/group-handler.js";
import { incomingWebhook } from "./incoming-webhook.js";

/**
 * Endpoints of the `webhooks` group: the incoming-webhook endpoint
 * `/external/{integration_name}` that third-party systems post to.
 */
export const endpoints = {
  incomingWebhook,
};

/** The group's Lambda handler: the middy chain of `groupHandler` in front of {@link endpoints}. */
export const handler = groupHandler(endpoints);
