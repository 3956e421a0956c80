import { BatchGetCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { Deps } from "../deps.js";
import {
  InvalidApiKeyError,
  InvalidSubdomainError,
  RealmDeactivatedError,
  UnauthorizedError,
  UserDeactivatedError,
} from "../errors.js";
import { keys } from "../data/keys.js";
import { recordOf } from "../data/items.js";
import { getApiKeyOwner } from "../data/users.js";
import type { RealmRecord } from "../data/records/realm.js";
import type { UserRecord } from "../data/records/user.js";

import { apiEmail } from "../domain/email.js";
import { hashApiKey } from "./api-key.js";
import { parseBasicAuth } from "./basic.js";

/**
 * Authenticates an API request by HTTP Basic email + API key (spec
 * "Authentication"). Two round trips: the key's lookup item, then the user
 * and realm items together (a third, only for bots, reads the bot's owner).
 *
 * @param authorization the `Authorization` header
 * @param subdomain the request host's organization subdomain
 * @throws UnauthorizedError 401 when no Basic credentials were sent
 * @throws InvalidApiKeyError 401 when the key is unknown or not the email's
 * @throws UserDeactivatedError 401 for a deactivated user, or a bot whose owner is deactivated
 * @throws RealmDeactivatedError 401 for a deactivated organization
 * @throws InvalidSubdomainError 401 when the account belongs to another organization's host
 */
export async function authenticateApiRequest(
  deps: Pick<Deps, "db" | "table" | "config">,
  authorization: string | undefined,
  subdomain: string,
): Promise<{ user: UserRecord; realm: RealmRecord }> {
  const credentials = parseBasicAuth(authorization);
  if (!credentials) throw new UnauthorizedError();
  const owner = await getApiKeyOwner(deps, hashApiKey(credentials.password));
  if (!owner) throw new InvalidApiKeyError();

  const out = await deps.db.send(
    new BatchGetCommand({
      RequestItems: {
        [deps.table]: { Keys: [keys.user(owner.realm_id, owner.user_id), keys.realm(owner.realm_id)], ConsistentRead: true },
      },
    }),
  );
  let user: UserRecord | undefined;
  let realm: RealmRecord | undefined;
  for (const item of out.Responses?.[deps.table] ?? []) {
    if (item.type === "user") user = recordOf<UserRecord>(item);
    else if (item.type === "realm") realm = recordOf<RealmRecord>(item);
  }
  if (!user || !realm) throw new InvalidApiKeyError();

  const email = credentials.username.toLowerCase();
  if (email !== user.delivery_email.toLowerCase() && email !== apiEmail(user, realm, deps.config).toLowerCase()) {
    throw new InvalidApiKeyError();
  }
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  if (realm.string_id !== subdomain) throw new InvalidSubdomainError();
  if (user.is_bot && user.bot_owner_id !== null) {
    const ownerItem = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: keys.user(realm.id, user.bot_owner_id) }),
    );
    if (ownerItem.Item && ownerItem.Item.is_active === false) throw new UserDeactivatedError();
  }
  return { user, realm };
}
