/**
 * The organization's settings in the client state (`ChatState.realmSettings`):
 * register's `realm_*` fields and the server's announced limits and periods,
 * kept current by `realm` events.
 */
import type { ChatState } from "./state.js";
import type { ServerEvent } from "./types.js";

/** Register fields kept in {@link ChatState.realmSettings} besides those named `realm_*`. */
const REALM_FIELDS = new Set(["max_file_upload_size_mib", "max_message_length", "max_topic_length", "max_stream_name_length", "max_stream_description_length", "server_presence_ping_interval_seconds", "server_presence_offline_threshold_seconds", "server_typing_started_expiry_period_milliseconds", "server_typing_stopped_wait_period_milliseconds", "server_typing_started_wait_period_milliseconds", "zulip_feature_level", "zulip_version", "upgrade_text_for_wide_organization_logo", "password_min_length", "password_min_guesses", "custom_profile_fields"]);

/** The organization's settings of a register answer (see {@link ChatState.realmSettings}). */
export function realmSettingsFromRegister(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith("realm_") && k !== "realm_users" || REALM_FIELDS.has(k)));
}

/**
 * A `realm` event (https://zulip.com/api/get-events#realm-update and
 * `#realm-update_dict`): `update` sets `realm_<property>`; `update_dict` with
 * any `property` sets `realm_<key>` for each key of `data` (`default`'s settings;
 * `icon`'s `icon_url` → `realm_icon_url`, `logo`'s `logo_url` → `realm_logo_url`).
 */
export function applyRealmEvent(s: ChatState, event: Extract<ServerEvent, { type: "realm" }>): ChatState {
  const e = event as { op: string; property?: string; value?: unknown; data?: Record<string, unknown> };
  if (e.op === "update" && e.property) {
    s.realmSettings = { ...s.realmSettings, [`realm_${e.property}`]: e.value };
    if (e.property === "name") s.realm = { ...s.realm, name: String(e.value) };
  } else if (e.op === "update_dict" && e.data) {
    s.realmSettings = { ...s.realmSettings, ...Object.fromEntries(Object.entries(e.data).map(([k, v]) => [`realm_${k}`, v])) };
    if (typeof e.data.name === "string") s.realm = { ...s.realm, name: e.data.name };
  }
  return s;
}

/**
 * A positive duration the server announced at register (`server_*` fields, in
 * the unit their names say), or undefined when absent or malformed.
 */
export function serverMs(state: Pick<ChatState, "realmSettings">, field: string): number | undefined {
  const v = state.realmSettings[field];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
}
