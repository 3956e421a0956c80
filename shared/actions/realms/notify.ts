import type { Deps } from "../../deps.js";
import type { PlaygroundRecord } from "../../data/records/playground.js";

import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";

/** A realm setting's value as `realm` `update` / `update_dict` events carry it. */
export type RealmEventValue = EventOf<"realm/update">["value"];

/**
 * Sends `realm` `update` `{property, value}` (https://zulip.com/api/get-events#realm-update;
 * Zulip's `do_set_realm_property`) to `audience`, the realm's active users.
 * Call only after the change is stored.
 */
export async function notifyRealmUpdate(deps: Deps, property: string, value: RealmEventValue, audience: number[]): Promise<void> {
  await sendEvent(deps, { type: "realm", op: "update", property, value }, audience);
}

/**
 * Sends `realm` `update_dict` `{property: "default", data}`
 * (https://zulip.com/api/get-events#realm-update_dict) to `audience`: Zulip's
 * form for the message-edit settings and the group-valued settings, one event
 * per changed setting. Call only after the change is stored.
 */
export async function notifyRealmUpdateDict(
  deps: Deps,
  data: Record<string, RealmEventValue>,
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "realm", op: "update_dict", property: "default", data }, audience);
}

/**
 * Sends `realm` `deactivated` `{realm_id}` (https://zulip.com/api/get-events#realm-deactivated;
 * Zulip's `do_deactivate_realm`) to the realm's active users, so open long
 * polls return and clients find their credentials refused.
 */
export async function notifyRealmDeactivated(deps: Deps, realmId: number, audience: number[]): Promise<void> {
  await sendEvent(deps, { type: "realm", op: "deactivated", realm_id: realmId }, audience);
}

/** A playground as `realm_playgrounds` (register and events) lists it (OpenAPI `RealmPlayground`). */
export function playgroundToWire(p: PlaygroundRecord): EventOf<"realm_playgrounds">["realm_playgrounds"][number] {
  return { id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template };
}

/**
 * Sends `realm_playgrounds` with the realm's whole list, ordered by ID
 * (https://zulip.com/api/get-events#realm_playgrounds; Zulip's
 * `notify_realm_playgrounds`), to the realm's active users.
 */
export async function notifyRealmPlaygrounds(deps: Deps, playgrounds: PlaygroundRecord[], audience: number[]): Promise<void> {
  const list = [...playgrounds].sort((a, b) => a.id - b.id).map(playgroundToWire);
  await sendEvent(deps, { type: "realm_playgrounds", realm_playgrounds: list }, audience);
}

/**
 * Sends `realm_user_settings_defaults` `update` `{property, value}`
 * (https://zulip.com/api/get-events#realm_user_settings_defaults-update;
 * Zulip's `do_set_realm_user_default_setting`) to the realm's active users.
 */
export async function notifyRealmUserSettingsDefaultUpdate(
  deps: Deps,
  property: string,
  value: EventOf<"realm_user_settings_defaults/update">["value"],
  audience: number[],
): Promise<void> {
  await sendEvent(deps, { type: "realm_user_settings_defaults", op: "update", property, value }, audience);
}
