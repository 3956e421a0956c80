/**
 * The organization's administered lists, kept in `ChatState.realmSettings`
 * under register's names and changed by their events
 * (https://zulip.com/api/get-events). Custom emoji, user groups and
 * custom profile fields have state of their own, which the chat reads too
 * (`ChatState.realmEmoji`, `userGroups`, `people.profileFields`).
 * Here:
 * `realm_linkifiers`, `realm_playgrounds`, `realm_default_streams` (from
 * `default_streams`), `realm_user_settings_defaults` and `realm_exports`, which register
 * does not send: it holds the list of the last `realm_export` event (absent
 * until one comes; the data-exports page fetches `GET /export/realm` first).
 */
import type { ServerEvent } from "./types.js";

/** The event types this file applies; store.ts registers for them. */
export const ORGANIZATION_EVENT_TYPES = [
  "realm_linkifiers",
  "realm_playgrounds",
  "default_streams",
  "realm_user_settings_defaults",
  "realm_export",
];

/** The organization's settings and lists (`ChatState.realmSettings`). */
export type RealmSettings = Readonly<Record<string, unknown>>;

/**
 * Applies an organization-list event to the organization's settings (a new
 * record when it changed something; the same one for any other event type).
 */
export function applyOrganizationEvent(settings: RealmSettings, event: ServerEvent): RealmSettings {
  const set = (key: string, value: unknown): RealmSettings => ({ ...settings, [key]: value });
  switch (event.type) {
    case "realm_linkifiers":
      return set("realm_linkifiers", event.realm_linkifiers);
    case "realm_playgrounds":
      return set("realm_playgrounds", event.realm_playgrounds);
    case "default_streams":
      return set("realm_default_streams", event.default_streams);
    case "realm_export":
      return set("realm_exports", event.exports);
    case "realm_user_settings_defaults": {
      const old = (settings.realm_user_settings_defaults as Record<string, unknown> | undefined) ?? {};
      return set("realm_user_settings_defaults", { ...old, [event.property]: event.value });
    }
    default:
      return settings;
  }
}
