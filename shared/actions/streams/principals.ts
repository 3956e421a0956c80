import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { getUsersByIds, userIdsByEmails } from "../../data/users.js";
import { realmHost } from "../../domain/email.js";
import { JsonableError, NoSuchUserError } from "../../errors.js";

/**
 * Resolves the `principals` of `POST`/`DELETE /users/me/subscriptions`
 * (user IDs, or API emails: real addresses or the `user<id>@<host>` form
 * used when an email is hidden) to active users of the realm, bots
 * included (Zulip's `bulk_principals_to_user_profiles`). Two round trips
 * at most (email claims, then the users), one per 100 principals in
 * parallel.
 * @throws NoSuchUserError 400 `No such user` for an unknown ID or email
 * @throws JsonableError 400 `User is deactivated` for a deactivated user
 */
export async function accessPrincipals(
  deps: Deps,
  realm: RealmRecord,
  principals: (number | string)[],
): Promise<UserRecord[]> {
  const ids: number[] = [];
  const emails: string[] = [];
  const fakeEmail = new RegExp(`^user(\\d+)@${escapeRegExp(realmHost(realm, deps.config).replace(/:\d+$/, ""))}$`, "i");
  for (const p of principals) {
    if (typeof p === "number") ids.push(p);
    else {
      const fake = fakeEmail.exec(p);
      if (fake) ids.push(Number(fake[1]));
      else emails.push(p.toLowerCase());
    }
  }
  if (emails.length > 0) {
    const claims = await userIdsByEmails(deps, realm.id, emails);
    if (claims.size !== new Set(emails).size) throw new NoSuchUserError();
    ids.push(...claims.values());
  }
  const unique = [...new Set(ids)];
  const users = await getUsersByIds(deps, realm.id, unique);
  const out: UserRecord[] = [];
  for (const id of unique) {
    const user = users.get(id);
    if (!user) throw new NoSuchUserError();
    if (!user.is_active) throw new JsonableError("User is deactivated");
    out.push(user);
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
