/**
 * The pure logic of the organization settings forms: which settings a form
 * shows, the draft a person edits, and the parameters of the one
 * `PATCH /realm` (https://zulip.com/api/update-realm) or
 * `PATCH /realm/user_settings_defaults` that saves only what changed, as
 * Zulip's "Save changes" does (https://zulip.com/help/organization-settings).
 */
import { isAdministrator, isOwner } from "../../../model/roles.js";
import type { ChatState } from "../../../model/store.js";

/** A value a setting holds in a draft: a flag, a choice, a number, text, or null (an unlimited time limit). */
export type SettingValue = boolean | number | string | null;

/** How a setting is edited and sent. */
export type SettingKind =
  | { kind: "bool" }
  | { kind: "select"; options: readonly (readonly [number | string, string])[] }
  /** A time limit in seconds, null for "any time" (sent as `"unlimited"`). */
  | { kind: "time-limit" }
  /** A group-valued setting (https://zulip.com/api/group-setting-values): a system group, sent as `{"new": id, "old": id}`. */
  | { kind: "group"; groups: readonly string[] }
  | { kind: "number"; min?: number; unit?: string }
  | { kind: "text"; maxLength?: number; multiline?: boolean };

/** One setting of a form: its API name (`realm_<name>` in register), label, and who may change it. */
export type SettingField = SettingKind & {
  name: string;
  label: string;
  /** Only organization owners may change it (Zulip's owner-only settings). */
  ownerOnly?: boolean;
};

/** Zulip's time-limit choices (seconds; null is "Any time"). */
export const TIME_LIMIT_CHOICES: readonly (readonly [number | null, string])[] = [
  [null, "Any time"],
  [120, "2 minutes"],
  [600, "10 minutes"],
  [3600, "1 hour"],
  [86400, "1 day"],
  [604800, "1 week"],
];

/** Reads each field's saved value from a settings record (`prefix` + name: `realm_` for register's organization settings). */
export function savedValues(fields: readonly SettingField[], source: Readonly<Record<string, unknown>>, prefix = ""): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const f of fields) {
    const v = source[prefix + f.name];
    out[f.name] = v === undefined ? null : (v as SettingValue);
  }
  return out;
}

/** Whether a draft value differs from the saved one. */
function differs(a: SettingValue | undefined, b: SettingValue | undefined): boolean {
  return (a ?? null) !== (b ?? null);
}

/** The names of the fields whose draft differs from the saved value. */
export function changedNames(fields: readonly SettingField[], saved: Record<string, SettingValue>, draft: Record<string, SettingValue>): string[] {
  return fields.filter((f) => differs(saved[f.name], draft[f.name])).map((f) => f.name);
}

/**
 * The request parameters for the changed settings only, encoded as the API
 * takes them: time limits `"unlimited"` for null, group settings
 * `{"new": id, "old": id}` (the client JSON-encodes objects), everything else as it is.
 * Empty when nothing changed.
 */
export function changedParams(
  fields: readonly SettingField[],
  saved: Record<string, SettingValue>,
  draft: Record<string, SettingValue>,
): Record<string, string | number | boolean | Record<string, unknown>> {
  const out: Record<string, string | number | boolean | Record<string, unknown>> = {};
  for (const f of fields) {
    const v = draft[f.name] ?? null;
    if (!differs(saved[f.name], v)) continue;
    if (f.kind === "time-limit") out[f.name] = v === null ? "unlimited" : Number(v);
    else if (f.kind === "group") out[f.name] = typeof saved[f.name] === "number" ? { new: Number(v), old: saved[f.name] } : { new: Number(v) };
    else if (f.kind === "number") out[f.name] = Number(v);
    else if (v !== null) out[f.name] = v;
  }
  return out;
}

/**
 * Whether the reader may change a setting: organization administrators may
 * change the organization's settings, and only owners the owner-only ones
 * (https://zulip.com/help/user-roles).
 */
export function canChange(state: Pick<ChatState, "users" | "me">, field?: Pick<SettingField, "ownerOnly">): boolean {
  return field?.ownerOnly ? isOwner(state) : isAdministrator(state);
}

/** The hint shown beside a setting the reader may not change. */
export function readOnlyReason(field?: Pick<SettingField, "ownerOnly">): string {
  return field?.ownerOnly ? "Only organization owners can change this" : "Only organization administrators can change this";
}

/** A time limit's value as a select option value (`"unlimited"` for null). */
export function timeLimitOptionValue(v: SettingValue): string {
  return v === null ? "unlimited" : String(v);
}

/** Reads a select option value back into a setting value of the field's kind. */
export function parseInput(field: SettingField, raw: string | boolean): SettingValue {
  if (field.kind === "bool") return raw === true;
  if (field.kind === "time-limit") return raw === "unlimited" ? null : Number(raw);
  if (field.kind === "group" || field.kind === "number") return raw === "" ? null : Number(raw);
  if (field.kind === "select") return field.options.some(([v]) => typeof v === "number") ? Number(raw) : String(raw);
  return String(raw);
}
