import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserRecord } from "../../data/records/user.js";

import { subscriberIdsOfStreams } from "../../data/subscriptions.js";

import { hasBasicStreamAccess } from "../../domain/stream-permissions.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { defaultStreamToWire, streamToWire } from "../../wire/stream.js";
import { subscriptionToWire } from "../../wire/subscription.js";

/**
 * Stream-level notification settings (null: inherit) and the personal
 * default each falls back to without `notification_settings_null`.
 */
const NOTIFICATION_FALLBACKS = [
  ["desktop_notifications", "enable_stream_desktop_notifications"],
  ["email_notifications", "enable_stream_email_notifications"],
  ["push_notifications", "enable_stream_push_notifications"],
  ["audible_notifications", "enable_stream_audible_notifications"],
  ["wildcard_mentions_notify", "wildcard_mentions_notify"],
] as const;

/**
 * The `subscription` fetch type of `POST /register`
 * (https://zulip.com/api/register-queue; Zulip's
 * `gather_subscriptions_helper`): `subscriptions` (active), `unsubscribed`
 * (inactive, still visible to the user) and `never_subscribed` (visible
 * streams the user never joined: public ones for non-guests, web-public
 * ones for everyone, every private one for administrators).
 *
 * Without the `notification_settings_null` capability, null stream
 * notification settings are replaced by the user's own defaults.
 * With `include_subscribers`, the listed streams' subscribers in parallel
 * Queries of the streams' subscriber indexes or of the users' subscription
 * partitions, whichever are fewer (`subscriberIdsOfStreams`); subscriber
 * lists of private streams the user is not subscribed to are shown only to
 * administrators, as in Zulip.
 * @param streams every stream of the realm (shared with the `stream` fetch type)
 * @param subs every subscription of the user, active or not
 * @param settings the user's effective personal settings
 * @param opts.loadUsers every user of the realm (read only with `includeSubscribers`)
 */
export async function subscriptionInitialState(
  deps: Deps,
  me: UserRecord,
  streams: StreamRecord[],
  subs: SubscriptionRecord[],
  settings: Record<string, unknown>,
  opts: { includeSubscribers: boolean; notificationSettingsNull: boolean; loadUsers: () => Promise<UserRecord[]> },
): Promise<Record<string, unknown>> {
  const byId = new Map(streams.filter((s) => !s.deactivated).map((s) => [s.stream_id, s]));
  const subByStream = new Map(subs.map((s) => [s.stream_id, s]));
  const active = subs.filter((s) => s.active && byId.has(s.stream_id));
  const inactive = subs.filter(
    (s) => !s.active && byId.has(s.stream_id) && hasBasicStreamAccess(me, byId.get(s.stream_id)!, undefined, { allowRealmAdmin: true }),
  );
  const never = [...byId.values()].filter(
    (s) => !subByStream.has(s.stream_id) && hasBasicStreamAccess(me, s, undefined, { allowRealmAdmin: true }),
  );

  const subscriberLists = new Map<number, number[]>();
  if (opts.includeSubscribers) {
    const visible = (s: StreamRecord) =>
      !s.invite_only || s.is_web_public || subByStream.get(s.stream_id)?.active === true || isRealmAdmin(me);
    const wanted = [...active, ...inactive].map((s) => byId.get(s.stream_id)!).concat(never).filter(visible);
    const userIds = (await opts.loadUsers()).map((u) => u.user_id);
    for (const [id, list] of await subscriberIdsOfStreams(deps, wanted.map((s) => s.stream_id), userIds)) subscriberLists.set(id, list);
  }
  const subscribersOf = (streamId: number) =>
    opts.includeSubscribers ? { subscribers: subscriberLists.get(streamId) ?? [] } : {};

  const subWire = (sub: SubscriptionRecord) => {
    const wire = subscriptionToWire(byId.get(sub.stream_id)!, sub, subscribersOf(sub.stream_id));
    if (!opts.notificationSettingsNull) {
      for (const [field, fallback] of NOTIFICATION_FALLBACKS) {
        const personal = settings[fallback];
        if (wire[field] === null && typeof personal === "boolean") wire[field] = personal;
      }
    }
    return wire;
  };
  const byName = (a: { name?: unknown }, b: { name?: unknown }) =>
    String(a.name).toLowerCase().localeCompare(String(b.name).toLowerCase());
  return {
    subscriptions: active.map(subWire).sort(byName),
    unsubscribed: inactive.map(subWire).sort(byName),
    never_subscribed: never.map((s) => ({ ...streamToWire(s), ...subscribersOf(s.stream_id) })).sort(byName),
  };
}

/**
 * The `stream` fetch type: `streams`, every stream the user may see
 * (public and web-public ones, subscribed private ones; all of them for
 * administrators; guests only their own and web-public ones).
 */
export function streamInitialState(me: UserRecord, streams: StreamRecord[], subs: SubscriptionRecord[]): Record<string, unknown> {
  const subByStream = new Map(subs.map((s) => [s.stream_id, s]));
  const visible = streams.filter(
    (s) => !s.deactivated && (isRealmAdmin(me) || hasBasicStreamAccess(me, s, subByStream.get(s.stream_id))),
  );
  return { streams: visible.map((s) => streamToWire(s)) };
}

/** The `default_streams` fetch type: `realm_default_streams`, the streams new users join. */
export function defaultStreamsInitialState(streams: StreamRecord[]): Record<string, unknown> {
  const defaults = streams.filter((s) => !s.deactivated && s.is_default);
  return { realm_default_streams: defaults.map((s) => defaultStreamToWire(s)) };
}
