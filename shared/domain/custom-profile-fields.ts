import { JsonableError } from "../errors.js";

/**
 * Rules of custom profile fields without storage (Zulip's
 * `CustomProfileField` model, `zerver/lib/external_accounts.py` and the
 * validators of `zerver/lib/validator.py` they use): the field types, the
 * limits, the checks of a field's definition and of a user's value.
 * Every check throws the `JsonableError` Zulip's view would return, with
 * its exact words.
 */

/** Field type IDs (https://zulip.com/api/get-custom-profile-fields `type`). */
export const ProfileFieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  CHOICE: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/**
 * `custom_profile_field_types` of `POST /register`
 * (https://zulip.com/api/register-queue): symbolic name → `{id, name}`.
 * Pronouns (8) exist since feature level 151.
 */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: "Short text" },
  LONG_TEXT: { id: 2, name: "Long text" },
  CHOICE: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date picker" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Person picker" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
} as const;

const FIELD_TYPE_IDS: ReadonlySet<number> = new Set(Object.values(ProfileFieldType));

/** Zulip's `CustomProfileField.NAME_MAX_LENGTH`, in characters. */
export const PROFILE_FIELD_NAME_MAX_LENGTH = 40;
/** Zulip's `CustomProfileField.HINT_MAX_LENGTH`, in characters. */
export const PROFILE_FIELD_HINT_MAX_LENGTH = 80;
/** Zulip's `MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS`. */
export const MAX_PROFILE_SUMMARY_FIELDS = 2;
/**
 * Most fields one organization may define. Zulip sets none; all of a
 * realm's fields live in one item, which must stay below DynamoDB's 400 KB.
 */
export const MAX_PROFILE_FIELDS = 100;
/** Longest JSON text of one field's `field_data`, in characters (same reason as {@link MAX_PROFILE_FIELDS}). */
export const PROFILE_FIELD_DATA_MAX_LENGTH = 3000;
/** Most user IDs one person-picker value may hold. */
export const MAX_PERSON_PICKER_USERS = 1000;

/** Zulip's default external account subtypes: the name and hint such a field gets. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { text: string; name: string; hint: string; url_pattern: string }> = {
  twitter: { text: "Twitter", name: "Twitter username", hint: "", url_pattern: "https://twitter.com/%(username)s" },
  github: { text: "GitHub", name: "GitHub username", hint: "", url_pattern: "https://github.com/%(username)s" },
};

/** A field's definition as the checks see it (`field_data` as stored: JSON text, or `""`). */
export interface ProfileFieldDefinition {
  name: string;
  hint: string;
  type: number;
  field_data: string;
  display_in_profile_summary: boolean;
}

function cappedString(varName: string, value: string, max: number): void {
  if ([...value].length > max) throw new JsonableError(`${varName} is too long (limit: ${max} characters)`);
}

function checkRequiredString(varName: string, value: unknown): string {
  if (typeof value !== "string") throw new JsonableError(`${varName} is not a string`);
  if (value.trim() === "") throw new JsonableError(`${varName} cannot be blank.`);
  return value;
}

/**
 * Zulip's `check_dict_only`: `value` is an object with the `required` keys,
 * possibly the `optional` ones, and nothing else.
 */
function checkDictOnly(
  varName: string,
  value: unknown,
  required: Record<string, (name: string, v: unknown) => void>,
  optional: Record<string, (name: string, v: unknown) => void> = {},
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new JsonableError(`${varName} is not a dict`);
  }
  const dict = value as Record<string, unknown>;
  for (const [key, check] of Object.entries(required)) {
    if (!(key in dict)) throw new JsonableError(`${key} key is missing from ${varName}`);
    check(`${varName}["${key}"]`, dict[key]);
  }
  for (const [key, check] of Object.entries(optional)) if (key in dict) check(`${varName}["${key}"]`, dict[key]);
  const extra = Object.keys(dict).filter((k) => !(k in required) && !(k in optional));
  if (extra.length > 0) throw new JsonableError(`Unexpected arguments: ${extra.join(", ")}`);
  return dict;
}

/** Whether a string is an absolute http(s) or ftp(s) URL with a host (Django's `URLValidator` schemes). */
export function isProfileUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return ["http:", "https:", "ftp:", "ftps:"].includes(url.protocol) && url.hostname.length > 0 && /^[a-z]+:\/\//i.test(value);
}

function checkUrlPattern(varName: string, value: unknown): void {
  if (typeof value !== "string") throw new JsonableError(`${varName} is not a string`);
  if (value === "") return;
  if (value.split("%(username)s").length !== 2) throw new JsonableError("URL pattern must contain '%(username)s'.");
  if (!isProfileUrl(value.replace("%(username)s", "username"))) throw new JsonableError(`${varName} is not a URL`);
}

/** Zulip's `validate_select_field_data`: choice key → `{text, order}`, non-blank, no duplicate texts. */
function checkChoiceFieldData(fieldData: Record<string, unknown>): void {
  if (Object.keys(fieldData).length < 1) throw new JsonableError("Field must have at least one choice.");
  const texts = new Set<string>();
  for (const [key, value] of Object.entries(fieldData)) {
    if (key.trim() === "") throw new JsonableError("'value' cannot be blank.");
    const choice = checkDictOnly("field_data", value, { text: checkRequiredString, order: checkRequiredString });
    texts.add(choice.text as string);
  }
  if (texts.size !== Object.keys(fieldData).length) throw new JsonableError("Field must not have duplicate choices.");
}

/** Zulip's `validate_external_account_field_data`. */
function checkExternalAccountFieldData(fieldData: Record<string, unknown>): void {
  checkDictOnly("field_data", fieldData, { subtype: checkRequiredString }, { url_pattern: checkUrlPattern });
  const subtype = fieldData.subtype as string;
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== "custom") throw new JsonableError("Invalid external account type");
  if (!("url_pattern" in fieldData)) throw new JsonableError("Custom external account must define URL pattern");
}

/** Whether a field is one of Zulip's default external accounts (its name and hint are fixed). */
export function isDefaultExternalField(type: number, fieldData: Record<string, unknown>): boolean {
  return type === ProfileFieldType.EXTERNAL_ACCOUNT && fieldData.subtype !== "custom";
}

/** The parsed `field_data` of a stored definition (`{}` for `""`). */
export function parseFieldData(fieldData: string): Record<string, unknown> {
  return fieldData === "" ? {} : (JSON.parse(fieldData) as Record<string, unknown>);
}

/**
 * Checks a field's whole definition, in the order of Zulip's
 * `validate_custom_profile_field`: `field_data` (choices, external
 * account), then label and hint unless a default external account, then the
 * type, then whether the type may be shown in the profile summary.
 * @param fieldData the parsed `field_data`
 * @throws JsonableError with Zulip's messages (`Label cannot be blank.`,
 *   `Invalid field type.`, `Field must have at least one choice.`, …)
 */
export function checkProfileFieldDefinition(def: Omit<ProfileFieldDefinition, "field_data">, fieldData: Record<string, unknown>): void {
  if (def.type === ProfileFieldType.CHOICE) checkChoiceFieldData(fieldData);
  else if (def.type === ProfileFieldType.EXTERNAL_ACCOUNT) checkExternalAccountFieldData(fieldData);
  if (JSON.stringify(fieldData).length > PROFILE_FIELD_DATA_MAX_LENGTH) {
    throw new JsonableError(`field_data is too long (limit: ${PROFILE_FIELD_DATA_MAX_LENGTH} characters)`);
  }
  if (!isDefaultExternalField(def.type, fieldData)) {
    if (def.name.trim() === "") throw new JsonableError("Label cannot be blank.");
    cappedString("hint", def.hint, PROFILE_FIELD_HINT_MAX_LENGTH);
    cappedString("name", def.name, PROFILE_FIELD_NAME_MAX_LENGTH);
  }
  if (!FIELD_TYPE_IDS.has(def.type)) throw new JsonableError("Invalid field type.");
  if (def.display_in_profile_summary && (def.type === ProfileFieldType.LONG_TEXT || def.type === ProfileFieldType.USER)) {
    throw new JsonableError("Field type not supported for display in profile summary.");
  }
}

/** Whether values of a field type are rendered as Markdown into `rendered_value` (Zulip's `is_renderable`). */
export function isRenderableProfileFieldType(type: number): boolean {
  return type === ProfileFieldType.SHORT_TEXT || type === ProfileFieldType.LONG_TEXT;
}

/** What the person-picker check needs to know about a user of the realm. */
export interface PersonPickerCandidate {
  user_id: number;
  is_active: boolean;
  is_bot: boolean;
}

function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Checks a non-empty value for a field (Zulip's
 * `validate_user_custom_profile_field`; error messages name the field by
 * its label) and returns it as stored: text as given, a person picker's
 * user IDs as their compact JSON text.
 * @param field the field's stored definition
 * @param users the realm's users, for person pickers
 * @throws JsonableError `<label> is not a string`, `<label> is too long (limit: 50 characters)`
 *   (500 for long text), `<label> is not a date`, `<label> is not a URL`,
 *   `'<value>' is not a valid choice for '<label>'.`, `User IDs is not a list`,
 *   `Invalid user ID: <id>`, `User with ID <id> is deactivated`, `User with ID <id> is a bot`
 */
export function checkProfileFieldValue(
  field: ProfileFieldDefinition,
  value: string | number[],
  users: ReadonlyMap<number, PersonPickerCandidate>,
): string {
  const label = field.name;
  if (field.type === ProfileFieldType.USER) {
    if (!Array.isArray(value)) throw new JsonableError("User IDs is not a list");
    if (value.length > MAX_PERSON_PICKER_USERS) {
      throw new JsonableError(`User IDs is too long (limit: ${MAX_PERSON_PICKER_USERS} items)`);
    }
    for (const id of value) {
      const user = users.get(id);
      if (!user) throw new JsonableError(`Invalid user ID: ${id}`);
      if (!user.is_active) throw new JsonableError(`User with ID ${id} is deactivated`);
      if (user.is_bot) throw new JsonableError(`User with ID ${id} is a bot`);
    }
    return JSON.stringify(value);
  }
  if (typeof value !== "string") throw new JsonableError(`${label} is not a string`);
  switch (field.type) {
    case ProfileFieldType.LONG_TEXT:
      cappedString(label, value, 500);
      break;
    case ProfileFieldType.DATE:
      if (!isIsoDate(value)) throw new JsonableError(`${label} is not a date`);
      break;
    case ProfileFieldType.URL:
      if (!isProfileUrl(value)) throw new JsonableError(`${label} is not a URL`);
      break;
    case ProfileFieldType.CHOICE:
      if (!Object.hasOwn(parseFieldData(field.field_data), value)) {
        throw new JsonableError(`'${value}' is not a valid choice for '${label}'.`);
      }
      break;
    default:
      // Short text, external account and pronouns: Zulip's `check_short_string`.
      cappedString(label, value, 50);
  }
  return value;
}
