import type { ComposePerson } from "./types.js";

/**
 * The people a recipient query finds, best first: full name starting with the
 * query, then a word of the name starting with it, then the email starting
 * with it (Zulip's typeahead order, simplified). Case-insensitive; people in
 * `exclude` (already chosen) are left out.
 * @param limit most results returned
 */
export function matchPeople(people: readonly ComposePerson[], query: string, exclude: ReadonlySet<number>, limit = 8): ComposePerson[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const ranked: { person: ComposePerson; rank: number }[] = [];
  for (const person of people) {
    if (exclude.has(person.user_id)) continue;
    const name = person.full_name.toLowerCase();
    const email = person.email.toLowerCase();
    const rank = name.startsWith(q)
      ? 0
      : name.split(/\s+/).some((word) => word.startsWith(q))
        ? 1
        : email.startsWith(q)
          ? 2
          : -1;
    if (rank >= 0) ranked.push({ person, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.person.full_name.localeCompare(b.person.full_name));
  return ranked.slice(0, limit).map((r) => r.person);
}
