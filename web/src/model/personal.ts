/**
 * The reader's own lists that personal settings show, kept apart from the
 * chat state's core: alert words, muted users, the bots they own, the
 * organization's custom profile fields and the integrations the server takes
 * incoming webhooks for. Built from `POST /register`
 * (https://zulip.com/api/register-queue) and changed by their events
 * through {@link applyPersonalEvent}.
 */
import type { WireRealmBot } from "../../../shared/wire/bot.js";
import type { WireCustomProfileField } from "../../../shared/wire/custom-profile-field.js";
import type { ServerEvent, WireUser } from "./types.js";

export type { WireRealmBot } from "../../../shared/wire/bot.js";
export type { WireCustomProfileField } from "../../../shared/wire/custom-profile-field.js";

/** A muted user and when they were muted (UNIX seconds). */
export interface MutedUser {
  id: number;
  timestamp: number;
}

/** One integration of register's `realm_incoming_webhook_bots`: its URL name (`/api/v1/external/<name>`) and display name. */
export interface WebhookIntegration {
  name: string;
  display_name: string;
}

/** See the module's description. */
export interface PersonalState {
  alertWords: readonly string[];
  mutedUsers: readonly MutedUser[];
  /** Bots the reader may manage (their own; every bot for an administrator), deactivated ones included. */
  bots: readonly WireRealmBot[];
  profileFields: readonly WireCustomProfileField[];
  webhookIntegrations: readonly WebhookIntegration[];
}

/** The event types {@link applyPersonalEvent} handles (registered for, and fetched). */
export const PERSONAL_EVENT_TYPES = ["alert_words", "muted_users", "realm_bot", "custom_profile_fields"];
/** Register fields fetched once, without events (the server's integrations do not change while it runs). */
export const PERSONAL_FETCH_ONLY_TYPES = ["realm_incoming_webhook_bots"];

/** The lists of a register answer: `alert_words`, `muted_users`, `realm_bots`, `custom_profile_fields`, `realm_incoming_webhook_bots`; absent ones are empty. */
export function personalFromRegister(r: Record<string, unknown>): PersonalState {
  const integrations = (r.realm_incoming_webhook_bots as WebhookIntegration[] | undefined) ?? [];
  return {
    alertWords: (r.alert_words as string[] | undefined) ?? [],
    mutedUsers: (r.muted_users as MutedUser[] | undefined) ?? [],
    bots: (r.realm_bots as WireRealmBot[] | undefined) ?? [],
    profileFields: (r.custom_profile_fields as WireCustomProfileField[] | undefined) ?? [],
    webhookIntegrations: integrations.map(({ name, display_name }) => ({ name, display_name })),
  };
}

/**
 * Applies `alert_words`, `muted_users` (each the whole new list),
 * `custom_profile_fields` (the whole field list) and `realm_bot` (`add`;
 * `update` merges the changed fields; `remove` marks the bot deactivated, as
 * Zulip keeps deactivated bots listed; `delete` drops it). Other events
 * return the state unchanged.
 */
export function applyPersonalEvent(state: PersonalState, event: ServerEvent): PersonalState {
  switch (event.type) {
    case "alert_words":
      return { ...state, alertWords: event.alert_words };
    case "muted_users":
      return { ...state, mutedUsers: event.muted_users };
    case "custom_profile_fields":
      return { ...state, profileFields: event.fields as WireCustomProfileField[] };
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

/** A user with one custom profile field's new value (a null value clears it), as `realm_user` `update` sends it. */
export function withProfileField(user: WireUser, field: { id: number; value: string | null; rendered_value?: string }): WireUser {
  const profile = { ...user.profile_data };
  if (field.value === null) delete profile[field.id];
  else profile[field.id] = field.rendered_value === undefined ? { value: field.value } : { value: field.value, rendered_value: field.rendered_value };
  return { ...user, profile_data: profile };
}
