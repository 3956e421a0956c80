import { z } from "zod";
import { checkSendWebhookMessage } from "../../shared/actions/webhooks/send-webhook-message.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST|GET /external/{integration_name}` (https://zulip.com/api/incoming-webhooks-overview):
 * a third-party sender's request, turned into messages by the named
 * integration. Common parameters as Zulip's `check_send_webhook_message`:
 * `stream`, `topic`, `only_events`, `exclude_events` (JSON lists of patterns).
 */
export const incomingWebhook: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, {
    stream: param.string(z.string().max(200)).optional(),
    topic: param.string(z.string().max(200)).optional(),
    only_events: param.json(z.array(z.string().max(200)).max(100)).optional(),
    exclude_events: param.json(z.array(z.string().max(200)).max(100)).optional(),
  });
  return checkSendWebhookMessage(ctx.deps, ctx.realm, ctx.user, {
    integrationName: ctx.pathParams.integration_name ?? "",
    headers: ctx.headers,
    query: ctx.query,
    body: ctx.body,
    stream: p.stream,
    topic: p.topic,
    onlyEvents: p.only_events,
    excludeEvents: p.exclude_events,
  });
};

/**
 * `HEAD /external/{integration_name}`: the check some senders (Trello) make
 * of a callback URL before they register it, answered with success once
 * the integration and the bot's key are known good (as Zulip's Trello view
 * answers HEAD). Nothing is posted.
 */
export const verifyIncomingWebhook: Endpoint = async () => ({});
