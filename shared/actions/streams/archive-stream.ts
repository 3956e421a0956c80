import { createHash } from "node:crypto";
import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { archiveStreamReleasingName } from "../../data/streams.js";
import {
  getSubscriptionsByPairs,
  listStreamSubscriberIds,
  putSubscriptions,
} from "../../data/subscriptions.js";
import { listActiveRealmUsers } from "../../data/users.js";

import { isStreamAdministrator, MAX_STREAM_NAME_LENGTH } from "../../domain/stream-permissions.js";
import { InvalidChannelIdError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { loadStreamAndSubscription } from "../../access/stream.js";
import { streamAudience } from "../../queries/streams/audience.js";
import { notifyDefaultStreams, notifyStreamDeleted } from "./notify-streams.js";

/**
 * The name an archived stream is stored under (Zulip's `do_deactivate_stream`):
 * the first 7 hex digits of the SHA-512 of its ID, `!DEACTIVATED:`, then the
 * old name, cut to the name length limit (in code points). The old name is
 * free for a new stream.
 */
export function archivedStreamName(streamId: number, name: string): string {
  const prefix = createHash("sha512").update(String(streamId)).digest("hex").slice(0, 7);
  return [...`${prefix}!DEACTIVATED:${name}`].slice(0, MAX_STREAM_NAME_LENGTH).join("");
}

/**
 * `DELETE /streams/{stream_id}` (https://zulip.com/api/archive-stream;
 * Zulip's `deactivate_stream_backend`):
 * archives a stream. Organization administrators and the stream's
 * administrators may; a private stream the caller may not see is
 * `Invalid channel ID`, anything else refused is `Must be an organization
 * administrator`.
 *
 * Writes: one transaction (the stream becomes `deactivated`, private, not
 * default, renamed to {@link archivedStreamName}; its name claim is
 * released), then every active subscription is deactivated (one BatchGet
 * per 100 and one BatchWrite per 25 subscribers).
 *
 * Events, after the writes: `stream` `delete` (with the old name and
 * privacy) to everyone who could see the stream, and `default_streams`
 * when it was a default stream.
 * @throws InvalidChannelIdError 400 `Invalid channel ID`
 * @throws OrganizationAdministratorRequiredError 400 `Must be an organization administrator`
 */
export async function checkArchiveStream(deps: Deps, realm: RealmRecord, user: UserRecord, streamId: number): Promise<void> {
  const { stream, sub } = await loadStreamAndSubscription(deps, user, realm, streamId);
  if (!stream) throw new InvalidChannelIdError();
  if (!isStreamAdministrator(user, sub)) {
    if (stream.invite_only && !sub) throw new InvalidChannelIdError();
    throw new OrganizationAdministratorRequiredError();
  }
  await doArchiveStream(deps, realm, stream);
}

/**
 * Archives a stream (see {@link checkArchiveStream}).
 * Preconditions: the acting user may archive it.
 * @throws InvalidChannelIdError when it was archived or renamed by a concurrent request
 */
export async function doArchiveStream(deps: Deps, realm: RealmRecord, stream: StreamRecord): Promise<void> {
  const [subscriberIds, activeUsers] = await Promise.all([
    listStreamSubscriberIds(deps, stream.stream_id),
    listActiveRealmUsers(deps, realm.id),
  ]);
  const affected = streamAudience(stream, activeUsers, subscriberIds);
  const archived = await archiveStreamReleasingName(deps, stream, archivedStreamName(stream.stream_id, stream.name), {
    invite_only: true,
    is_default: false,
  });
  if (!archived) throw new InvalidChannelIdError();

  const subs = await getSubscriptionsByPairs(
    deps,
    subscriberIds.map((userId) => ({ userId, streamId: stream.stream_id })),
  );
  await putSubscriptions(
    deps,
    subs.filter((s) => s.active).map((s) => ({ ...s, active: false })),
  );

  await notifyStreamDeleted(deps, [stream], affected);
  if (stream.is_default) {
    await notifyDefaultStreams(deps, realm, activeUsers, [{ ...stream, deactivated: true, is_default: false }]);
  }
}
