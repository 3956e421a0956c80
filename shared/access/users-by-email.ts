import type { Deps } from "../deps.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { getUsersByIds, userIdsByEmails } from "../data/users.js";
import { apiEmail, realmHost } from "../domain/email.js";

/**
 * Resolves emails to users of one realm in two round trips whatever their
 * number: a BatchGet of the unique-email items, then a BatchGet of the users.
 *
 * An email matches a user by their real (delivery) address or by their API
 * email, which is a fake `user<id>@<realm host>` address when their email is
 * hidden (Zulip addresses users by their API email).
 * @param emails as sent by the client (compared case-insensitively, trimmed)
 * @returns lower-cased email → user; unknown emails are absent
 */
export async function usersByEmail(
  deps: Pick<Deps, "db" | "table" | "config">,
  realm: RealmRecord,
  emails: string[],
): Promise<Map<string, UserRecord>> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))].filter((e) => e !== "");
  const host = realmHost(realm, deps.config).replace(/:\d+$/, "");
  const fakeIds = new Map<string, number>();
  const real: string[] = [];
  for (const email of wanted) {
    const m = /^user(\d+)@(.+)$/.exec(email);
    if (m && m[2] === host) fakeIds.set(email, Number(m[1]));
    else real.push(email);
  }
  const idByEmail = new Map<string, number>(fakeIds);
  for (const [email, id] of await userIdsByEmails(deps, realm.id, real)) idByEmail.set(email, id);
  const users = await getUsersByIds(deps, realm.id, [...idByEmail.values()]);
  const out = new Map<string, UserRecord>();
  for (const [email, id] of idByEmail) {
    const user = users.get(id);
    if (!user) continue;
    // A fake address must be this user's current API email, not a guess at another's.
    if (fakeIds.has(email) && apiEmail(user, realm, deps.config).toLowerCase() !== email) continue;
    out.set(email, user);
  }
  return out;
}

/** Python's `str()` of a list of integers, as Zulip's error descriptions print operands: `[1, 2]`. */
export function pyList(ids: readonly number[]): string {
  return `[${ids.join(", ")}]`;
}
