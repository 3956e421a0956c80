import { personMatchRank } from "../../model/typeahead.js";
import type { ComposePerson } from "./types.js";

/**
 * The people a recipient query finds, best first: full name starting with the
 * query, then a word of the name starting with it, then the email starting
 * with it (the ranks of the compose typeahead's `personMatchRank`, without its
 * substring matches). Case-insensitive; people in `exclude` (already chosen)
 * are left out.
 * @param limit most results returned
 */
export function matchPeople(people: readonly ComposePerson[], query: string, exclude: ReadonlySet<number>, limit = 8): ComposePerson[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const ranked: { person: ComposePerson; rank: number }[] = [];
  for (const person of people) {
    if (exclude.has(person.user_id)) continue;
    const rank = personMatchRank(person, q, false);
    if (rank >= 0) ranked.push({ person, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.person.full_name.localeCompare(b.person.full_name));
  return ranked.slice(0, limit).map((r) => r.person);
}
