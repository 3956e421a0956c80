import { integrationByName, integrationNames } from "../../integrations/registry.js";

/** One entry of register's `realm_incoming_webhook_bots`. */
export interface IncomingWebhookBotEntry {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  /** Configuration key → description (OpenAPI `BotConfiguration`). */
  config: Record<string, string>;
}

/**
 * `realm_incoming_webhook_bots` of `POST /register`
 * (https://zulip.com/api/register-queue; Zulip's `WEBHOOK_INTEGRATIONS`
 * listing): every integration served at `/api/v1/external/<name>`, with its
 * event types when it lists them. No integration here takes bot
 * configuration options, so `config` is an empty dictionary.
 */
export function incomingWebhookBotsInitialState(): { realm_incoming_webhook_bots: IncomingWebhookBotEntry[] } {
  return {
    realm_incoming_webhook_bots: integrationNames().map((name) => {
      const integration = integrationByName(name)!;
      return {
        name,
        display_name: integration.displayName,
        all_event_types: integration.allEventTypes ? [...integration.allEventTypes] : null,
        config: {},
      };
    }),
  };
}
