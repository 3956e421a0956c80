import { generateApiKey, hashApiKey } from "../../auth/api-key.js";
import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { listRealmMembers, replaceApiKey } from "../../data/users.js";
import { notifyRealmBotUpdates } from "./notify.js";

/**
 * Gives a user or bot a new API key (Zulip's `do_regenerate_api_key`): the
 * old key stops working at once, since its lookup item is deleted in the
 * same transaction that registers the new one. For a bot, its
 * administrators get a `realm_bot` `update` `{bot: {user_id, api_key}}`;
 * a person's mobile devices are unregistered (a `push_unregister_all` job,
 * one SendMessageBatch), as the apps signed in with the old key.
 * @returns the new 32-character key
 */
export async function doRegenerateApiKey(deps: Deps, realm: RealmRecord, user: UserRecord): Promise<string> {
  const key = generateApiKey();
  await replaceApiKey(deps, user, hashApiKey(user.api_key), key, hashApiKey(key));
  if (user.is_bot) {
    await notifyRealmBotUpdates(deps, user, [{ api_key: key }], await listRealmMembers(deps, realm.id));
  } else {
    // Zulip queues `clear_push_device_tokens` here too: the phones signed in with the old key
    // must not ring any more (`shared/actions/push/devices.ts`, run by the worker).
    await deps.deferred.enqueue([{ kind: "push_unregister_all", payload: { realm_id: realm.id, user_id: user.user_id } }]);
  }
  return key;
}
