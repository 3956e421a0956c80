import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { JsonableError } from "../../errors.js";
import { checkSubscribe, type SubscribeResult } from "./subscribe.js";
import { doUnsubscribe, planUnsubscribe, type UnsubscribeResult } from "./unsubscribe.js";

/**
 * `PATCH /users/me/subscriptions` (https://zulip.com/api/update-subscriptions;
 * Zulip's `update_subscriptions_backend`): subscribes the caller to the
 * `add` streams (creating missing ones, as `POST /users/me/subscriptions`
 * with its defaults) and unsubscribes them from the `delete` streams, in one
 * request; the answer is both answers in one (`subscribed`,
 * `already_subscribed`, `removed`, `not_removed`).
 *
 * Zulip runs both in one database transaction. Here every check of both
 * halves runs before the first write: the unsubscription's checks (reads
 * only), then the subscription's, which check everything before they
 * create or subscribe; the unsubscription is written last. A refused
 * request changes nothing. An empty `add` does not run the subscription
 * half at all (so a guest may use `delete` alone).
 * @throws JsonableError `Nothing to do. Specify at least one of "add" or "delete".`;
 *   every error of `checkSubscribe` and `checkUnsubscribe`
 */
export async function checkUpdateSubscriptions(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  add: { name: string; color?: string; description?: string }[],
  remove: string[],
): Promise<SubscribeResult & UnsubscribeResult> {
  if (add.length === 0 && remove.length === 0) {
    throw new JsonableError('Nothing to do. Specify at least one of "add" or "delete".');
  }
  const plan = await planUnsubscribe(deps, realm, user, remove, undefined);
  const subscribed: SubscribeResult =
    add.length === 0
      ? { subscribed: {}, already_subscribed: {} }
      : await checkSubscribe(deps, realm, user, {
          subscriptions: add,
          authorizationErrorsFatal: true,
          announce: false,
          inviteOnly: false,
          isWebPublic: false,
          isDefaultStream: false,
          streamPostPolicy: 1,
          messageRetentionDays: "realm_default",
        });
  const removed = remove.length === 0 ? { removed: [], not_removed: [] } : await doUnsubscribe(deps, realm, plan);
  return { ...subscribed, ...removed };
}
