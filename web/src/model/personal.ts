/**
 * The reader's own lists that personal settings show, kept apart from the
 * chat state's core: alert words, the bots they own and the integrations the
 * server takes incoming webhooks for (muted users and custom profile fields
 * are people.ts's, which the chat reads too). Built from `POST /register`
 * (https://zulip.com/api/register-queue) and changed by their events
 * through {@link applyPersonalEvent}.
 */
import type { WireRealmBot } from "../../../shared/wire/bot.js";
import type { ServerEvent } from "./types.js";

export type { WireRealmBot } from "../../../shared/wire/bot.js";

/** One integration of register's `realm_incoming_webhook_bots`: its URL name (`/api/v1/external/<name>`) and display name. */
export interface WebhookIntegration {
  name: string;
  display_name: string;
}

/** See the module's description. */
export interface PersonalState {
  alertWords: readonly string[];
  /** Bots the reader may manage (their own; every bot for an administrator), deactivated ones included. */
  bots: readonly WireRealmBot[];
  webhookIntegrations: readonly WebhookIntegration[];
}

/** The event types {@link applyPersonalEvent} handles (registered for, and fetched). */
export const PERSONAL_EVENT_TYPES = ["alert_words", "realm_bot"];
/** Register fields fetched once, without events (the server's integrations do not change while it runs). */
export const PERSONAL_FETCH_ONLY_TYPES = ["realm_incoming_webhook_bots"];

/** The lists of a register answer: `alert_words`, `realm_bots`, `realm_incoming_webhook_bots`; absent ones are empty. */
export function personalFromRegister(r: Record<string, unknown>): PersonalState {
  const integrations = (r.realm_incoming_webhook_bots as WebhookIntegration[] | undefined) ?? [];
  return {
    alertWords: (r.alert_words as string[] | undefined) ?? [],
    bots: (r.realm_bots as WireRealmBot[] | undefined) ?? [],
    webhookIntegrations: integrations.map(({ name, display_name }) => ({ name, display_name })),
  };
}

/**
 * Applies `alert_words` (the whole new list) and `realm_bot` (`add`;
 * `update` merges the changed fields; `remove` marks the bot deactivated, as
 * Zulip keeps deactivated bots listed; `delete` drops it). Other events
 * return the state unchanged.
 */
export function applyPersonalEvent(state: PersonalState, event: ServerEvent): PersonalState {
  switch (event.type) {
    case "alert_words":
      return { ...state, alertWords: event.alert_words };
    case "realm_bot": {
      const id = event.bot.user_id;
      const others = state.bots.filter((b) => b.user_id !== id);
      const old = state.bots.find((b) => b.user_id === id);
      if (event.op === "add") return { ...state, bots: [...others, event.bot as WireRealmBot] };
      if (event.op === "delete") return { ...state, bots: others };
      if (!old) return state;
      const changed = event.op === "remove" ? { is_active: false } : (event.bot as Partial<WireRealmBot>);
      return { ...state, bots: state.bots.map((b) => (b.user_id === id ? { ...b, ...changed } : b)) };
    }
    default:
      return state;
  }
}
