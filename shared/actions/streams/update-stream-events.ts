import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { ActiveRealmUser } from "../../data/users.js";
import { StreamPostPolicy } from "../../domain/stream-permissions.js";
import { streamAudience } from "../../queries/streams/audience.js";
import { notifyDefaultStreams, notifyStreamCreated, notifyStreamDeleted, notifyStreamUpdated } from "./notify-streams.js";
import { notifySubscriptionPeers } from "./notify-subscriptions.js";

/** A stored change of a stream: the stream before and after, and the fields that were set. */
export interface StreamChange {
  before: StreamRecord;
  after: StreamRecord;
  /** The stored fields set, besides the name (privacy fields together, `rendered_description` with `description`). */
  fields: Partial<StreamRecord>;
}

/**
 * Sends the events of a stream's settings change (`PATCH /streams/{stream_id}`,
 * https://zulip.com/api/update-stream), after the write and in Zulip's
 * order, to everyone who can see the stream afterwards:
 * - privacy: `stream` `update` of `invite_only` carrying
 *   `history_public_to_subscribers` and `is_web_public`; users who can newly
 *   see the stream get `stream` `create` and `subscription` `peer_add`
 *   instead, users who no longer can get `stream` `delete`;
 * - `default_streams` when `is_default` changed;
 * - `message_retention_days`, `description` (with `rendered_description`)
 *   and `name` updates;
 * - `stream_post_policy`, followed by the legacy `is_announcement_only`.
 * Stream notification-bot messages are not sent.
 * @param subscriberIds the stream's subscribers
 * @param activeUsers the realm's active users
 */
export async function notifyStreamChanged(
  deps: Deps,
  realm: RealmRecord,
  change: StreamChange,
  subscriberIds: number[],
  activeUsers: ActiveRealmUser[],
): Promise<void> {
  const { before, after, fields } = change;
  const oldAudience = streamAudience(before, activeUsers, subscriberIds);
  const audience = streamAudience(after, activeUsers, subscriberIds);
  // Updates name the stream as its audience knew it; the post policy ones follow the rename.
  const known = { stream_id: before.stream_id, name: before.name };

  if (fields.invite_only !== undefined) {
    const seenBefore = new Set(oldAudience);
    const seenAfter = new Set(audience);
    const gained = audience.filter((id) => !seenBefore.has(id));
    const lost = oldAudience.filter((id) => !seenAfter.has(id));
    // Described as it is now (events follow the stored change), under the name they knew.
    const described = { ...after, name: before.name };
    if (gained.length > 0) {
      // Users who can newly see the stream get it whole, then its subscribers.
      await notifyStreamCreated(deps, [described], gained);
      await notifySubscriptionPeers(deps, "peer_add", before.stream_id, subscriberIds, gained);
    }
    if (lost.length > 0) await notifyStreamDeleted(deps, [described], lost);
    const gainedSet = new Set(gained);
    await notifyStreamUpdated(
      deps,
      known,
      "invite_only",
      after.invite_only,
      audience.filter((id) => !gainedSet.has(id)),
      { history_public_to_subscribers: after.history_public_to_subscribers, is_web_public: after.is_web_public },
    );
  }
  if (fields.is_default !== undefined) await notifyDefaultStreams(deps, realm, activeUsers, [after]);
  if (fields.message_retention_days !== undefined) {
    await notifyStreamUpdated(deps, known, "message_retention_days", fields.message_retention_days, audience);
  }
  if (fields.description !== undefined) {
    await notifyStreamUpdated(deps, known, "description", fields.description, audience, {
      rendered_description: fields.rendered_description,
    });
  }
  if (after.name !== before.name) await notifyStreamUpdated(deps, known, "name", after.name, audience);
  if (fields.stream_post_policy !== undefined) {
    const renamed = { stream_id: after.stream_id, name: after.name };
    await notifyStreamUpdated(deps, renamed, "stream_post_policy", fields.stream_post_policy, audience);
    // Legacy clients still read the deprecated property (Zulip sends both).
    await notifyStreamUpdated(
      deps,
      renamed,
      "is_announcement_only",
      fields.stream_post_policy === StreamPostPolicy.ADMINS,
      audience,
    );
  }
}
