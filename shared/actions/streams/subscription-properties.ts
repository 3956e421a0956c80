import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { SubscriptionRecord } from "../../data/records/subscription.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByIds } from "../../data/streams.js";
import { getSubscriptionsByPairs, updateSubscriptionFields } from "../../data/subscriptions.js";

import { isValidStreamColor } from "../../domain/stream-colors.js";
import { hasBasicStreamAccess } from "../../domain/stream-permissions.js";
import { InvalidChannelIdError, JsonableError } from "../../errors.js";
import { notifySubscriptionUpdated } from "./notify-subscriptions.js";

/** The properties `POST /users/me/subscriptions/properties` accepts. */
export const SUBSCRIPTION_PROPERTIES = [
  "color",
  "is_muted",
  "in_home_view",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
] as const;

/** One of {@link SUBSCRIPTION_PROPERTIES}. */
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

/** One entry of `subscription_data`. */
export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string;
}

/** A validated change: the stored field and value. */
interface ValidChange {
  streamId: number;
  field: keyof SubscriptionRecord;
  value: boolean | string;
}

function validate(change: SubscriptionPropertyChange): ValidChange {
  const { property, value } = change;
  if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) {
    throw new JsonableError(`Unknown subscription property: ${property}`);
  }
  if (property === "color") {
    if (typeof value !== "string" || !isValidStreamColor(value)) {
      throw new JsonableError("color is not a valid hex color code");
    }
    return { streamId: change.stream_id, field: "color", value };
  }
  if (typeof value !== "boolean") throw new JsonableError(`${property} is not a boolean`);
  // `in_home_view` is the deprecated inverse of `is_muted`; only `is_muted` is stored.
  if (property === "in_home_view") return { streamId: change.stream_id, field: "is_muted", value: !value };
  return { streamId: change.stream_id, field: property as keyof SubscriptionRecord, value };
}

/**
 * `POST`/`PATCH /users/me/subscriptions/properties`
 * (https://zulip.com/api/update-subscription-settings; Zulip's
 * `update_subscription_properties_backend`): changes the caller's personal
 * settings of streams they are subscribed to.
 *
 * Every change is checked before any is written (Zulip applies them one by
 * one; a bad entry here changes nothing): the property must be known, the
 * stream visible to the caller, the caller subscribed, and the value of
 * the property's type. Reads: one BatchGet of the streams and one of the
 * subscriptions, in parallel; writes: one conditional update per change,
 * in parallel.
 *
 * Events, after the writes and in request order: `subscription` `update`
 * `{stream_id, property, value}` to the caller; a change of `is_muted` or
 * `in_home_view` sends two events, `in_home_view` first, then `is_muted`
 * (feature level 139).
 *
 * @throws JsonableError 400 `Unknown subscription property: <p>`, `Invalid channel ID`,
 *   `Not subscribed to channel ID <id>`, `<p> is not a boolean`, `color is not a valid hex color code`
 */
export async function checkUpdateSubscriptionProperties(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  changes: SubscriptionPropertyChange[],
): Promise<void> {
  const streamIds = [...new Set(changes.map((c) => c.stream_id))];
  const [streams, subs] = await Promise.all([
    getStreamsByIds(deps, realm.id, streamIds),
    getSubscriptionsByPairs(deps, streamIds.map((streamId) => ({ userId: user.user_id, streamId }))),
  ]);
  const subByStream = new Map(subs.filter((s) => s.active).map((s) => [s.stream_id, s]));

  const valid: ValidChange[] = [];
  for (const change of changes) {
    if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
      throw new JsonableError(`Unknown subscription property: ${change.property}`);
    }
    const stream = streams.get(change.stream_id);
    const sub = subByStream.get(change.stream_id);
    if (!stream || stream.deactivated || !hasBasicStreamAccess(user, stream, sub)) throw new InvalidChannelIdError();
    if (!sub) throw new JsonableError(`Not subscribed to channel ID ${change.stream_id}`);
    valid.push(validate(change));
  }

  // Several changes of one subscription are merged into one update (last one wins per field).
  const fieldsByStream = new Map<number, Record<string, unknown>>();
  for (const v of valid) fieldsByStream.set(v.streamId, { ...fieldsByStream.get(v.streamId), [v.field]: v.value });
  await Promise.all(
    [...fieldsByStream].map(([streamId, fields]) => updateSubscriptionFields(deps, user.user_id, streamId, fields)),
  );

  for (const v of valid) {
    if (v.field === "is_muted") await notifySubscriptionUpdated(deps, user.user_id, v.streamId, "in_home_view", !v.value);
    await notifySubscriptionUpdated(deps, user.user_id, v.streamId, v.field, v.value);
  }
}
