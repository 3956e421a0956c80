import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { claimBotReminder } from "../../data/users.js";
import { apiEmail } from "../../domain/email.js";
import {
  JsonableError,
  MissingArgumentError,
  RequestBodyTooLargeError,
  RouteNotFoundError,
  StreamDoesNotExistError,
  StreamIdDoesNotExistError,
  UnsupportedWebhookEventTypeError,
} from "../../errors.js";
import { WebhookPayloadError } from "../../integrations/payload.js";
import { loadIntegration } from "../../integrations/load.js";
import type { Integration, WebhookMessage, WebhookRequest, WebhookResult } from "../../integrations/types.js";
import { ensureNotificationBot } from "../users/notification-bot.js";
import { checkSendMessage } from "../messages/send-message.js";

/**
 * Largest webhook body accepted, in bytes (1 MiB). Senders' payloads are
 * far smaller (a GitHub push with 20 commits is about 30 KB), and the
 * endpoint parses the whole body in memory before anything is checked.
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** How long a bot's owner hears nothing more about a misconfigured integration (Zulip's `BOT_OWNER_STREAM_ALERT_WAITPERIOD`). */
export const BOT_OWNER_ALERT_WAIT_SECONDS = 5 * 60;

/** An incoming-webhook request after the handler parsed the common parameters. */
export interface IncomingWebhookRequest {
  /** The URL's integration name (`/external/<name>`). */
  integrationName: string;
  /** Request headers as sent (any case). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The query string's parameters (`api_key` is dropped before the integration sees them). */
  query: ReadonlyMap<string, string>;
  body: Buffer | undefined;
  /** `stream`: a name, or an ID when all digits; absent for a direct message to the bot's owner. */
  stream?: string;
  /** `topic`: replaces the integration's topic. */
  topic?: string;
  /** `only_events`: shell-style patterns; events matching none are dropped. */
  onlyEvents?: string[];
  /** `exclude_events`: shell-style patterns; events matching any are dropped. */
  excludeEvents?: string[];
}

/**
 * Shell-style pattern match as Python's `fnmatch.fnmatch` on POSIX:
 * `*` any run, `?` one character, `[seq]` / `[!seq]` a class; case-sensitive.
 */
export function eventPatternMatches(name: string, pattern: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) {
        re += "\\[";
        continue;
      }
      let body = pattern.slice(i + 1, end);
      i = end;
      if (body.startsWith("!")) body = "^" + body.slice(1);
      re += `[${body.replace(/\\/g, "\\\\")}]`;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s").test(name);
}

/**
 * Whether `only_events` / `exclude_events` drop an event (Zulip's filter in
 * `check_send_webhook_message`). An event without a type is never dropped.
 */
export function isEventFilteredOut(eventType: string | null, only?: string[], exclude?: string[]): boolean {
  if (eventType === null) return false;
  if (only !== undefined && !only.some((p) => eventPatternMatches(eventType, p))) return true;
  return exclude !== undefined && exclude.some((p) => eventPatternMatches(eventType, p));
}

/** The request as integrations see it (see `WebhookRequest`). */
export function webhookRequestForIntegration(req: IncomingWebhookRequest): WebhookRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = v;
  const query: Record<string, string> = {};
  for (const [k, v] of req.query) if (k !== "api_key") query[k] = v;
  const contentType = (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return { headers, query, body: req.body ? req.body.toString("utf8") : "", contentType };
}

/** Runs an integration; a failure that is not a client error is logged and answered as a bad payload. */
function runIntegration(deps: Deps, integration: Integration, request: WebhookRequest): WebhookResult {
  try {
    return integration.handle(request);
  } catch (err) {
    if (err instanceof JsonableError) throw err;
    deps.log.error("webhook integration failed", { integration: integration.name, error: String(err) });
    throw new JsonableError(`The ${integration.displayName} webhook could not read this payload`);
  }
}

/**
 * Sends a bot's owner a direct message from the Notification Bot about a
 * misconfigured integration (Zulip's
 * `send_rate_limited_pm_notification_to_bot_owner`): at most once per
 * {@link BOT_OWNER_ALERT_WAIT_SECONDS} per bot, claimed with a conditional
 * write. Nothing for a bot without an owner.
 */
async function notifyBotOwner(deps: Deps, realm: RealmRecord, bot: UserRecord, content: string): Promise<void> {
  if (!bot.is_bot || bot.bot_owner_id === null) return;
  const now = Math.floor(deps.clock.now() / 1000);
  if (!(await claimBotReminder(deps, realm.id, bot.user_id, now, BOT_OWNER_ALERT_WAIT_SECONDS))) return;
  const notificationBot = await ensureNotificationBot(deps, realm);
  await checkSendMessage(deps, realm, notificationBot, {
    type: "private",
    to: [bot.bot_owner_id],
    topic: undefined,
    content,
    clientName: "Internal",
  });
}

/** The owner's notice for a stream that does not exist (the facts of Zulip's `send_pm_if_empty_stream`). */
function missingStreamNotice(deps: Deps, realm: RealmRecord, bot: UserRecord, stream: string | number): string {
  const identity = `\`${apiEmail(bot, realm, deps.config)}\``;
  return typeof stream === "number"
    ? `Your bot ${identity} tried to post to the channel with ID ${stream}, but no channel has that ID.`
    : `Your bot ${identity} tried to post to the channel #**${stream}**, but that channel does not exist. ` +
        `[Create it](#channels/new) or correct the integration's URL.`;
}

/** The owner's notice for a body that is not JSON (the facts of Zulip's `notify_bot_owner_about_invalid_json`). */
function invalidJsonNotice(deps: Deps, realm: RealmRecord, bot: UserRecord, integration: Integration): string {
  return (
    `Your bot \`${apiEmail(bot, realm, deps.config)}\` received a request for the ${integration.displayName} integration ` +
    `whose body is not the JSON this integration expects. Check the webhook's settings (its content type and payload format) at the sender.`
  );
}

/**
 * One more round of percent-decoding (as Python's `urllib.parse.unquote`):
 * each run of `%XX` escapes that forms UTF-8 is decoded, anything else
 * (a lone `%`, bytes that are not UTF-8) is kept as written.
 * `undefined` stays `undefined`.
 */
export function unquoteParameter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Sends one of the integration's messages as Zulip's `check_send_webhook_message` does. */
async function sendOne(
  deps: Deps,
  realm: RealmRecord,
  bot: UserRecord,
  req: IncomingWebhookRequest,
  message: WebhookMessage,
  clientName: string,
): Promise<void> {
  if (req.stream === undefined) {
    // Without a stream the message goes to the bot's owner; an ownerless bot has nobody to tell.
    if (bot.bot_owner_id === null) throw new MissingArgumentError("stream");
    await checkSendMessage(deps, realm, bot, {
      type: "private",
      to: [bot.bot_owner_id],
      topic: undefined,
      content: message.content,
      clientName,
    });
    return;
  }
  const to = /^[0-9]+$/.test(req.stream) ? Number(req.stream) : req.stream;
  try {
    await checkSendMessage(deps, realm, bot, {
      type: "stream",
      to,
      topic: req.topic ?? message.topic,
      content: message.content,
      clientName,
    });
  } catch (err) {
    // Zulip answers the sender with success here (so it keeps the hook) and tells the owner instead.
    if (err instanceof StreamDoesNotExistError || err instanceof StreamIdDoesNotExistError) {
      await notifyBotOwner(deps, realm, bot, missingStreamNotice(deps, realm, bot, to));
      return;
    }
    throw err;
  }
}

/**
 * `POST /api/v1/external/{integration_name}`
 * (https://zulip.com/api/incoming-webhooks-overview; Zulip's `webhook_view`
 * and `check_send_webhook_message`): the integration turns the sender's
 * request into messages, which the bot posts to `stream` (name, or ID when
 * all digits) under the integration's topic or `topic`, or, without
 * `stream`, sends to its owner. Content and topic are capped as for any
 * message (10,000 bytes with `[message truncated]`, 60 characters with `...`).
 *
 * Nothing is posted for an event the integration ignores, or that
 * `only_events` / `exclude_events` filter out. A stream that does not exist
 * is answered with success and its owner hears of it from the Notification
 * Bot (at most once per five minutes), as they do of a body that is not JSON.
 * @throws RouteNotFoundError 404 for an unknown integration
 * @throws RequestBodyTooLargeError 413 over {@link MAX_WEBHOOK_BODY_BYTES}
 * @throws WebhookPayloadError 400 naming what the payload lacks
 * @throws UnsupportedWebhookEventTypeError HTTP 200 `UNSUPPORTED_WEBHOOK_EVENT_TYPE`
 * @throws JsonableError 400 as `POST /messages` refuses (no permission to post, empty topic, …)
 * @param lookup finds the integration by URL name (`loadIntegration`, one chunk per integration; tests pass their own)
 * @returns the fields the integration adds to its success answer (`successFields`; usually none)
 */
export async function checkSendWebhookMessage(
  deps: Deps,
  realm: RealmRecord,
  bot: UserRecord,
  req: IncomingWebhookRequest,
  lookup: (name: string) => Promise<Integration | undefined> | Integration | undefined = loadIntegration,
): Promise<Record<string, unknown>> {
  const integration = await lookup(req.integrationName);
  if (!integration) throw new RouteNotFoundError();
  if (req.body && req.body.length > MAX_WEBHOOK_BODY_BYTES) throw new RequestBodyTooLargeError(MAX_WEBHOOK_BODY_BYTES);

  let result: WebhookResult;
  try {
    result = runIntegration(deps, integration, webhookRequestForIntegration(req));
  } catch (err) {
    // As Zulip's webhook_view: a body that is not JSON usually means a misconfigured sender, so its owner hears of it.
    if (err instanceof WebhookPayloadError && err.message === "Malformed JSON") {
      await notifyBotOwner(deps, realm, bot, invalidJsonNotice(deps, realm, bot, integration));
    }
    throw err;
  }
  if (result.kind === "unsupported") throw new UnsupportedWebhookEventTypeError(integration.displayName, result.eventType);
  const answer = { ...integration.successFields };
  if (result.kind === "ignored") return answer;
  if (isEventFilteredOut(result.eventType, req.onlyEvents, req.excludeEvents)) return answer;

  const target = integration.unquoteUrlParameters
    ? { ...req, stream: unquoteParameter(req.stream), topic: unquoteParameter(req.topic) }
    : req;
  // Zulip's client name for a webhook's messages.
  const clientName = `Zulip${integration.displayName.replace(/\s+/g, "")}Webhook`;
  for (const message of result.messages) await sendOne(deps, realm, bot, target, message, clientName);
  return answer;
}
