/**
 * Custom profile fields (https://zulip.com/help/custom-profile-fields): their
 * types and the `field_data` of a list-of-options field
 * (https://zulip.com/api/create-custom-profile-field).
 */

/** The field types the organization can create, as [type, Zulip's name]. */
export const FIELD_TYPES: [number, string][] = [
  [1, "Short text"],
  [2, "Long text"],
  [3, "List of options"],
  [4, "Date"],
  [5, "Link"],
  [6, "Users"],
  [8, "Pronouns"],
];

/** The type of a list-of-options field. */
export const SELECT_TYPE = 3;

/** A field type's name (`Short text`, …; "External account" for 7). */
export function fieldTypeName(type: number): string {
  return FIELD_TYPES.find(([t]) => t === type)?.[1] ?? (type === 7 ? "External account" : `Type ${type}`);
}

/**
 * The `field_data` of a list-of-options field from its options, one per
 * line (blank lines dropped): `{"0": {"text": …, "order": "0"}, …}` JSON.
 */
export function selectFieldData(lines: string): string {
  const options = lines
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return JSON.stringify(Object.fromEntries(options.map((text, i) => [String(i), { text, order: String(i) }])));
}

/** The options of a list-of-options field's `field_data`, in their order, one per line; empty for other data. */
export function selectOptionLines(fieldData: string): string {
  try {
    const data = JSON.parse(fieldData) as Record<string, { text?: string; order?: string }>;
    return Object.values(data)
      .filter((o) => typeof o?.text === "string")
      .sort((a, b) => Number(a.order) - Number(b.order))
      .map((o) => o.text)
      .join("\n");
  } catch {
    return "";
  }
}

/** The IDs after moving `id` one place up (-1) or down (+1); the same order when it cannot move. */
export function moved(ids: readonly number[], id: number, by: -1 | 1): number[] {
  const out = [...ids];
  const at = out.indexOf(id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= out.length) return out;
  [out[at], out[to]] = [out[to]!, out[at]!];
  return out;
}
