import { INTEGRATION_LISTINGS } from "../../integrations/names.js";

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
 * listing): every integration served at `/api/v1/external/<name>`, with
 * its event types when it lists them, from `shared/integrations/names.ts`
 * so that the `events` function does not bundle the integrations. No
 * integration here takes bot configuration options, so `config` is an
 * empty dictionary.
 */
export function incomingWebhookBotsInitialState(): { realm_incoming_webhook_bots: IncomingWebhookBotEntry[] } {
  return {
    realm_incoming_webhook_bots: INTEGRATION_LISTINGS.map((integration) => ({
      name: integration.name,
      display_name: integration.displayName,
      all_event_types: integration.allEventTypes ? [...integration.allEventTypes] : null,
      config: {},
    })),
  };
}
