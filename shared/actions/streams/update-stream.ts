import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { updateStream } from "../../data/streams.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";

import { realmUrl } from "../../domain/email.js";
import { isRealmAdmin, isRealmOwner } from "../../domain/roles.js";
import {
  canCreateStreams,
  canCreateWebPublicStreams,
  isStreamAdministrator,
  parseMessageRetentionDays,
  StreamPostPolicy,
  webPublicStreamsEnabled,
} from "../../domain/stream-permissions.js";
import {
  JsonableError,
  OrganizationAdministratorRequiredError,
  OrganizationOwnerRequiredError,
} from "../../errors.js";
import { sendEvent, type ZulipEvent } from "../../events/publish.js";
import { loadStreamAndSubscription } from "../../access/stream.js";
import { listActiveRealmUsers, streamAudience } from "../../queries/streams/audience.js";
import { streamToWire } from "../../wire/stream.js";
import { notifyDefaultStreams } from "./default-stream-events.js";
import { sortedIds } from "./internal.js";
import { renderStreamDescription } from "./render-description.js";
import { checkStreamName, stripStreamName } from "./stream-names.js";

/** The parameters of `PATCH /streams/{stream_id}`, typed by the endpoint; all optional. */
export interface StreamUpdateRequest {
  description?: string;
  new_name?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  stream_post_policy?: number;
  /** `realm_default`, `unlimited` or a number of days. */
  message_retention_days?: string | number;
  /** Deprecated alias: true is `stream_post_policy` 2, false is 1. */
  is_announcement_only?: boolean;
}

/** The spec's error for `PATCH /streams/{stream_id}` on an unknown (or invisible) stream. */
const invalidStreamId = () => new JsonableError("Invalid stream id");

/**
 * `PATCH /streams/{stream_id}` (spec "Update a stream"; Zulip's
 * `update_stream_backend`). Organization administrators, and the stream's
 * administrators (subscription role 20), may change any property.
 *
 * Checks, before anything is written (Zulip applies changes one at a time;
 * here a refused request changes nothing):
 * - the stream exists and the caller may see it, else `Invalid stream id`;
 *   others get `Must be an organization administrator`;
 * - the resulting privacy settings are coherent (`Invalid parameters`: a
 *   web-public stream must be public with shared history, a public stream
 *   must share history); a default stream cannot be private;
 * - changing privacy needs the right to create such streams, and for a
 *   private stream a subscription (even for administrators: Zulip requires
 *   them to be subscribed); web-public needs spectator access and an owner;
 * - `is_default_stream` needs an organization administrator,
 *   `message_retention_days` an owner;
 * - `new_name` is checked and must differ (`Channel already has that name.`).
 *
 * All changes are one write: an UpdateItem, or with a rename a transaction
 * that also moves the unique-name claim (`Channel name already in use.` when
 * another stream holds the name).
 *
 * Events, after the write and in Zulip's order, to everyone who can see the
 * stream afterwards: privacy (`invite_only` with `history_public_to_subscribers`
 * and `is_web_public`; plus `stream` `create` and `peer_add` to users who can
 * newly see it, `stream` `delete` to users who no longer can),
 * `default_streams`, `message_retention_days`, `description` (with
 * `rendered_description`), `name`, `stream_post_policy` followed by the
 * legacy `is_announcement_only`. Stream notification-bot messages are not sent.
 *
 * @throws JsonableError 400 for each refusal above
 */
export async function checkUpdateStream(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
  req: StreamUpdateRequest,
): Promise<void> {
  const { stream, sub } = await loadStreamAndSubscription(deps, user, realm, streamId);
  if (!stream) throw invalidStreamId();
  if (!isStreamAdministrator(user, sub)) {
    if (stream.invite_only && !sub) throw invalidStreamId();
    throw new OrganizationAdministratorRequiredError();
  }

  const privacyGiven =
    req.is_private !== undefined || req.is_web_public !== undefined || req.history_public_to_subscribers !== undefined;
  const isPrivate = req.is_private ?? stream.invite_only;
  const isWebPublic = req.is_web_public ?? stream.is_web_public;
  const isDefault = req.is_default_stream ?? stream.is_default;
  const history =
    req.history_public_to_subscribers ?? (req.is_private !== undefined ? !req.is_private : stream.history_public_to_subscribers);
  if (isWebPublic && !history) throw new JsonableError("Invalid parameters");
  if (isWebPublic && isPrivate) throw new JsonableError("Invalid parameters");
  if (!isPrivate && !history) throw new JsonableError("Invalid parameters");
  if (isPrivate && isDefault) throw new JsonableError("A default channel cannot be private.");

  if (req.is_private !== undefined) {
    // Zulip requires even administrators to be subscribed to change a private stream's privacy.
    if (stream.invite_only && !sub) throw invalidStreamId();
    if (!canCreateStreams(user)) throw new JsonableError("Insufficient permission");
  }
  if (req.is_web_public) {
    if (!webPublicStreamsEnabled(realm)) throw new JsonableError("Web-public channels are not enabled.");
    if (!canCreateWebPublicStreams(user)) throw new JsonableError("Insufficient permission");
  }
  if (req.is_default_stream !== undefined && !isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();

  let retention: number | null | undefined;
  if (req.message_retention_days !== undefined) {
    if (!isRealmOwner(user)) throw new OrganizationOwnerRequiredError();
    retention = parseMessageRetentionDays(req.message_retention_days);
  }

  // Zulip does not allow newlines in stream descriptions.
  const description = req.description?.replace(/\n/g, " ");

  let newName: string | undefined;
  if (req.new_name !== undefined) {
    newName = stripStreamName(req.new_name);
    checkStreamName(newName);
    if (newName === stream.name) throw new JsonableError("Channel already has that name.");
  }

  let postPolicy = req.stream_post_policy;
  if (req.is_announcement_only !== undefined) {
    postPolicy = req.is_announcement_only ? StreamPostPolicy.ADMINS : StreamPostPolicy.EVERYONE;
  }

  const fields: Partial<StreamRecord> = {};
  if (privacyGiven) {
    fields.invite_only = isPrivate;
    fields.is_web_public = isWebPublic;
    fields.history_public_to_subscribers = history;
  }
  if (req.is_default_stream !== undefined) fields.is_default = req.is_default_stream;
  if (retention !== undefined) fields.message_retention_days = retention;
  if (description !== undefined) {
    fields.description = description;
    fields.rendered_description = renderStreamDescription(description, realmUrl(realm, deps.config));
  }
  if (postPolicy !== undefined) fields.stream_post_policy = postPolicy;

  const rename = newName !== undefined ? { from: stream.name, to: newName } : undefined;
  if (Object.keys(fields).length === 0 && !rename) return;
  const [outcome, subscriberIds, activeUsers] = await Promise.all([
    updateStream(deps, realm.id, stream.stream_id, fields, rename),
    listStreamSubscriberIds(deps, stream.stream_id),
    listActiveRealmUsers(deps, realm.id),
  ]);
  if (outcome === "name_taken") throw new JsonableError("Channel name already in use.");
  if (outcome === "missing") throw invalidStreamId();

  const updated: StreamRecord = { ...stream, ...fields, ...(newName !== undefined ? { name: newName } : {}) };
  const oldAudience = streamAudience(stream, activeUsers, subscriberIds);
  const audience = streamAudience(updated, activeUsers, subscriberIds);
  const update = (property: string, value: unknown, name: string, extra: Record<string, unknown> = {}): ZulipEvent => ({
    type: "stream",
    op: "update",
    property,
    value,
    stream_id: stream.stream_id,
    name,
    ...extra,
  });

  if (privacyGiven) {
    const before = new Set(oldAudience);
    const after = new Set(audience);
    const gained = audience.filter((id) => !before.has(id));
    const lost = oldAudience.filter((id) => !after.has(id));
    if (gained.length > 0) {
      // Users who can newly see the stream get it whole, then its subscribers.
      await sendEvent(deps, { type: "stream", op: "create", streams: [streamToWire({ ...updated, name: stream.name })] }, gained);
      await sendEvent(
        deps,
        { type: "subscription", op: "peer_add", stream_ids: [stream.stream_id], user_ids: sortedIds(subscriberIds) },
        gained,
      );
    }
    if (lost.length > 0) {
      // Described as it is now (events follow the stored change), under the name they knew.
      await sendEvent(deps, { type: "stream", op: "delete", streams: [streamToWire({ ...updated, name: stream.name })] }, lost);
    }
    const gainedSet = new Set(gained);
    await sendEvent(
      deps,
      update("invite_only", isPrivate, stream.name, {
        history_public_to_subscribers: history,
        is_web_public: isWebPublic,
      }),
      audience.filter((id) => !gainedSet.has(id)),
    );
  }
  if (req.is_default_stream !== undefined) await notifyDefaultStreams(deps, realm, activeUsers, [updated]);
  if (retention !== undefined) await sendEvent(deps, update("message_retention_days", retention, stream.name), audience);
  if (description !== undefined) {
    await sendEvent(
      deps,
      update("description", description, stream.name, { rendered_description: fields.rendered_description }),
      audience,
    );
  }
  if (newName !== undefined) await sendEvent(deps, update("name", newName, stream.name), audience);
  if (postPolicy !== undefined) {
    await sendEvent(deps, update("stream_post_policy", postPolicy, updated.name), audience);
    // Legacy clients still read the deprecated property (Zulip sends both).
    await sendEvent(
      deps,
      update("is_announcement_only", postPolicy === StreamPostPolicy.ADMINS, updated.name),
      audience,
    );
  }
}
