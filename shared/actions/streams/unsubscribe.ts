import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByNames } from "../../data/streams.js";
import { getSubscriptionsByPairs } from "../../data/subscriptions.js";

import { canRemoveSubscribers, hasBasicStreamAccess } from "../../domain/stream-permissions.js";
import { JsonableError, StreamDoesNotExistError } from "../../errors.js";
import { doRemoveSubscriptions } from "./bulk-subscriptions.js";
import { accessPrincipals } from "./principals.js";
import { checkStreamName, stripStreamName } from "./stream-names.js";

/** The success fields of `DELETE /users/me/subscriptions`. */
export interface UnsubscribeResult {
  /** Stream names unsubscribed from, once per (user, stream). */
  removed: string[];
  /** Stream names the users were not subscribed to, once per (user, stream). */
  not_removed: string[];
}

/** Whether `target` is the caller or a bot the caller owns (Zulip's `user_directly_controls_user`). */
function directlyControls(caller: UserRecord, target: UserRecord): boolean {
  return caller.user_id === target.user_id || (target.is_bot && target.bot_owner_id === caller.user_id);
}

/**
 * `DELETE /users/me/subscriptions` (https://zulip.com/api/unsubscribe;
 * Zulip's `remove_subscriptions_backend`): unsubscribes the caller, or the
 * `principals`, from streams given by name.
 *
 * A stream that does not exist, or that the caller may not see (a private
 * stream they are not subscribed to, unless they are an administrator),
 * is `STREAM_DOES_NOT_EXIST`: private names do not leak. Unsubscribing
 * anyone but oneself or one's own bots needs the right to remove
 * subscribers: organization administrators (the default
 * `can_remove_subscribers_group`) and stream administrators. Nothing is
 * written when any check fails.
 *
 * @param names stream names as sent (stripped here)
 * @param principals user IDs or API emails; absent or empty: the caller
 * @throws StreamDoesNotExistError 400 `STREAM_DOES_NOT_EXIST` with `stream` for the first unknown name
 * @throws JsonableError 400 `Insufficient permission`, `No such user`, name errors
 */
export async function checkUnsubscribe(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  names: string[],
  principals: (number | string)[] | undefined,
): Promise<UnsubscribeResult> {
  return doUnsubscribe(deps, realm, await planUnsubscribe(deps, realm, user, names, principals));
}

/** What {@link planUnsubscribe} checked: who leaves which streams. */
export interface UnsubscribePlan {
  targets: UserRecord[];
  streams: StreamRecord[];
}

/**
 * The checks of {@link checkUnsubscribe}, reading only: resolves the
 * streams and users and raises its errors, so a caller can check an
 * unsubscription before it writes anything else (`PATCH
 * /users/me/subscriptions`).
 * @throws as {@link checkUnsubscribe}
 */
export async function planUnsubscribe(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  names: string[],
  principals: (number | string)[] | undefined,
): Promise<UnsubscribePlan> {
  const stripped = names.map(stripStreamName);
  for (const name of new Set(stripped)) checkStreamName(name);

  const [targets, byName] = await Promise.all([
    principals && principals.length > 0 ? accessPrincipals(deps, realm, principals) : Promise.resolve([user]),
    getStreamsByNames(deps, realm.id, stripped),
  ]);
  const unsubscribingOthers = targets.some((t) => !directlyControls(user, t));

  const ownSubs = await getSubscriptionsByPairs(
    deps,
    [...byName.values()].map((s) => ({ userId: user.user_id, streamId: s.stream_id })),
  );
  const ownSubByStream = new Map(ownSubs.map((sub) => [sub.stream_id, sub]));

  const streams: StreamRecord[] = [];
  const seen = new Set<number>();
  for (const name of stripped) {
    const stream = byName.get(name.toLowerCase());
    const sub = stream ? ownSubByStream.get(stream.stream_id) : undefined;
    if (!stream || !hasBasicStreamAccess(user, stream, sub, { allowRealmAdmin: true })) {
      throw new StreamDoesNotExistError(name);
    }
    if (seen.has(stream.stream_id)) continue;
    seen.add(stream.stream_id);
    streams.push(stream);
  }
  if (unsubscribingOthers) {
    for (const stream of streams) {
      if (!canRemoveSubscribers(user, stream, ownSubByStream.get(stream.stream_id))) {
        throw new JsonableError("Insufficient permission");
      }
    }
  }

  return { targets, streams };
}

/**
 * Carries out a checked {@link UnsubscribePlan} (Zulip's
 * `bulk_remove_subscriptions`, with its events).
 * @returns the names removed and not removed, once per (user, stream)
 */
export async function doUnsubscribe(deps: Deps, realm: RealmRecord, plan: UnsubscribePlan): Promise<UnsubscribeResult> {
  const { removed, notSubscribed } = await doRemoveSubscriptions(deps, realm, plan.targets, plan.streams);
  return {
    removed: removed.map((c) => c.stream.name),
    not_removed: notSubscribed.map((c) => c.stream.name),
  };
}
