/**
 * What the app knows about people beyond the users list, view-free: each
 * person's status (emoji and text), whom the reader muted, and the
 * organization's custom profile fields, from `POST /register`
 * (`user_status`, `muted_users`, `custom_profile_fields`) and kept current by
 * the `user_status`, `muted_users` and `custom_profile_fields` events
 * (https://zulip.com/api/get-events). Also the status presets and the
 * reading of profile fields and local times for user cards.
 */
import type { WireCustomProfileField } from "../../../shared/wire/custom-profile-field.js";
import { emojiChar } from "./emoji/catalog.js";
import type { DeliveredEvent, ServerEvent, WireUser } from "./types.js";

/** A person's status (https://zulip.com/help/status-and-availability): empty strings when unset. */
export interface UserStatus {
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/**
 * A custom profile field of the organization (https://zulip.com/help/custom-profile-fields),
 * as the server sends it. `type`: 1 short text, 2 long text, 3 list of options,
 * 4 date, 5 link, 6 users, 7 external account, 8 pronouns.
 */
export type ProfileField = WireCustomProfileField;

/** The people state. */
export interface PeopleState {
  /** By user ID; people with no status are absent. */
  statuses: ReadonlyMap<number, UserStatus>;
  /** Muted user IDs → when they were muted (UNIX seconds). */
  muted: ReadonlyMap<number, number>;
  /** The organization's fields in their display order. */
  profileFields: readonly ProfileField[];
}

/** Zulip's status presets of the "Set status" dialog: emoji name, its code point(s) and text. */
export const STATUS_PRESETS: readonly Pick<UserStatus, "emoji_name" | "emoji_code" | "status_text">[] = [
  { emoji_name: "calendar", emoji_code: "1f4c6", status_text: "In a meeting" },
  { emoji_name: "bus", emoji_code: "1f68c", status_text: "Commuting" },
  { emoji_name: "sick", emoji_code: "1f912", status_text: "Out sick" },
  { emoji_name: "palm_tree", emoji_code: "1f334", status_text: "Vacationing" },
  { emoji_name: "house", emoji_code: "1f3e0", status_text: "Working remotely" },
];

/** Zulip's limit on a status text (characters). */
export const MAX_STATUS_TEXT = 60;

const EMPTY_STATUS: UserStatus = { status_text: "", emoji_name: "", emoji_code: "", reaction_type: "" };

/** Whether a status shows anything. */
function isSet(s: UserStatus): boolean {
  return s.status_text !== "" || s.emoji_name !== "";
}

/** The people state of a register answer (absent fields: nothing set). */
export function peopleFromRegister(r: Record<string, unknown>): PeopleState {
  const statuses = new Map<number, UserStatus>();
  for (const [id, raw] of Object.entries((r.user_status as Record<string, Partial<UserStatus>> | undefined) ?? {})) {
    const s = { ...EMPTY_STATUS, ...raw };
    if (isSet(s)) statuses.set(Number(id), { status_text: s.status_text, emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
  }
  const muted = new Map(((r.muted_users as { id: number; timestamp: number }[] | undefined) ?? []).map((m) => [m.id, m.timestamp]));
  return { statuses, muted, profileFields: sortFields((r.custom_profile_fields as ProfileField[] | undefined) ?? []) };
}

function sortFields(fields: readonly ProfileField[]): ProfileField[] {
  return [...fields].sort((a, b) => a.order - b.order);
}

/**
 * Applies a `user_status`, `muted_users` or `custom_profile_fields` event;
 * returns the same object for any other event. A `user_status` event carries
 * only what changed: an empty `status_text` or `emoji_name` clears that part.
 */
export function applyPeopleEvent(p: PeopleState, event: ServerEvent): PeopleState {
  switch (event.type) {
    case "user_status": {
      const e = event as DeliveredEvent<"user_status">;
      const old = p.statuses.get(e.user_id) ?? EMPTY_STATUS;
      const next: UserStatus = { ...old };
      if (e.status_text !== undefined) next.status_text = e.status_text;
      if (e.emoji_name !== undefined) {
        next.emoji_name = e.emoji_name;
        next.emoji_code = e.emoji_name === "" ? "" : (e.emoji_code ?? "");
        next.reaction_type = e.emoji_name === "" ? "" : (e.reaction_type ?? "unicode_emoji");
      }
      const statuses = new Map(p.statuses);
      if (isSet(next)) statuses.set(e.user_id, next);
      else statuses.delete(e.user_id);
      return { ...p, statuses };
    }
    case "muted_users":
      return { ...p, muted: new Map((event as DeliveredEvent<"muted_users">).muted_users.map((m) => [m.id, m.timestamp])) };
    case "custom_profile_fields":
      return { ...p, profileFields: sortFields((event as DeliveredEvent<"custom_profile_fields">).fields) };
    default:
      return p;
  }
}

/**
 * A user after a `realm_user` `update` with `custom_profile_field`: the field's
 * value set in `profile_data` (a null value removes it).
 */
export function withProfileValue(user: WireUser, field: { id: number; value: string | null; rendered_value?: string }): WireUser {
  const data = { ...(user.profile_data ?? {}) };
  if (field.value === null) delete data[String(field.id)];
  else data[String(field.id)] = { value: field.value, ...(field.rendered_value !== undefined ? { rendered_value: field.rendered_value } : {}) };
  return { ...user, profile_data: data };
}

/** A unicode emoji from its code (`1f4c6`, `1f468-200d-1f4bb`); the `:name:` for custom emoji or a bad code. */
export function emojiGlyph(s: Pick<UserStatus, "emoji_code" | "emoji_name" | "reaction_type">): string {
  if (!s.emoji_name) return "";
  if (s.reaction_type && s.reaction_type !== "unicode_emoji") return `:${s.emoji_name}:`;
  return emojiChar(s.emoji_code) ?? `:${s.emoji_name}:`;
}

/**
 * A person's local time in their `timezone` (IANA name) as "3:05 PM" (or
 * "15:05" with `twentyFourHour`); undefined when the person set none or the
 * name is unknown to the browser.
 */
export function localTime(timezone: string, nowMs: number, twentyFourHour: boolean): string | undefined {
  if (!timezone) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: timezone, hour: "numeric", minute: "2-digit", hour12: !twentyFourHour }).format(new Date(nowMs));
  } catch {
    return undefined;
  }
}

/**
 * The text a profile field's value shows (https://zulip.com/help/custom-profile-fields):
 * an option's text for a list of options (`field_data` maps option IDs to
 * `{text, order}`), people's names for a users field (the value is a JSON
 * list of IDs), the value itself for the others; undefined when empty.
 */
export function profileFieldText(field: ProfileField, value: string | undefined, userName: (id: number) => string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  try {
    if (field.type === 3) {
      const options = JSON.parse(field.field_data) as Record<string, { text: string }>;
      return options[value]?.text ?? value;
    }
    if (field.type === 6) {
      const ids = JSON.parse(value) as number[];
      return ids.map((id) => userName(id) ?? `User ${id}`).join(", ");
    }
  } catch {
    return value;
  }
  return value;
}

/** Zulip's rule for whose email a card shows: what the user list carries (`delivery_email` when visible, else `email` unless it is a dummy). */
export function visibleEmail(user: Pick<WireUser, "email" | "delivery_email">): string | undefined {
  if (user.delivery_email) return user.delivery_email;
  return /^user\d+@/.test(user.email) ? undefined : user.email;
}
