import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { updateStreamFields } from "../../data/streams.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { listActiveRealmUsers } from "../../data/users.js";

import { realmUrl } from "../../domain/email.js";
import { isRealmAdmin, isRealmOwner } from "../../domain/roles.js";
import {
  canCreateStreams,
  streamCreationSetting,
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
import { loadStreamAndSubscription } from "../../access/stream.js";
import { realmSettingGroupMembership } from "../../access/user-group.js";
import { isFullMember } from "../../domain/realm-settings.js";
import { renderStreamDescription } from "./render-description.js";
import { checkStreamName, stripStreamName } from "./stream-names.js";
import { notifyStreamChanged } from "./update-stream-events.js";

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

/** The error of `PATCH /streams/{stream_id}` for an unknown (or invisible) stream. */
const invalidStreamId = () => new JsonableError("Invalid stream id");

/**
 * `PATCH /streams/{stream_id}` (https://zulip.com/api/update-stream; Zulip's
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
 * The change is then made by {@link doUpdateStream}.
 *
 * @throws JsonableError 400 for each refusal above, and those of {@link doUpdateStream}
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
    const kind = isPrivate ? "private" : "public";
    const isMember = await realmSettingGroupMembership(deps, realm, user, [streamCreationSetting(kind)]);
    const fullMember = isFullMember(realm, user, Math.floor(deps.clock.now() / 1000));
    if (!canCreateStreams({ role: user.role, fullMember }, realm, kind, isMember)) throw new JsonableError("Insufficient permission");
  }
  if (req.is_web_public) {
    if (!webPublicStreamsEnabled(realm)) throw new JsonableError("Web-public channels are not enabled.");
    if (!canCreateWebPublicStreams(user, realm)) throw new JsonableError("Insufficient permission");
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
    fields.rendered_description = await renderStreamDescription(description, realmUrl(realm, deps.config));
  }
  if (postPolicy !== undefined) fields.stream_post_policy = postPolicy;
  await doUpdateStream(deps, realm, stream, fields, newName);
}

/**
 * Changes a stream's settings and tells everyone concerned (Zulip's
 * `do_change_stream_*` functions, applied together).
 *
 * All changes are one write: an UpdateItem, or with a rename a transaction
 * that also moves the unique-name claim. The stream's subscribers and the
 * realm's active users are read in parallel with it, for the audiences of
 * the events {@link notifyStreamChanged} sends afterwards.
 *
 * Preconditions: the acting user may make these changes, and they are
 * coherent (checked by {@link checkUpdateStream}).
 * @param fields the stored fields to set (privacy fields together, `rendered_description` with `description`)
 * @param newName the new name, different from the current one
 * @throws JsonableError 400 `Channel name already in use.` when another stream holds `newName`;
 *   `Invalid stream id` when the stream was archived or renamed meanwhile
 */
export async function doUpdateStream(
  deps: Deps,
  realm: RealmRecord,
  stream: StreamRecord,
  fields: Partial<StreamRecord>,
  newName: string | undefined,
): Promise<void> {
  const rename = newName !== undefined ? { from: stream.name, to: newName } : undefined;
  if (Object.keys(fields).length === 0 && !rename) return;
  const [outcome, subscriberIds, activeUsers] = await Promise.all([
    updateStreamFields(deps, realm.id, stream.stream_id, fields, rename),
    listStreamSubscriberIds(deps, stream.stream_id),
    listActiveRealmUsers(deps, realm.id),
  ]);
  if (outcome === "name_taken") throw new JsonableError("Channel name already in use.");
  if (outcome === "missing") throw invalidStreamId();
  const updated: StreamRecord = { ...stream, ...fields, ...(newName !== undefined ? { name: newName } : {}) };
  await notifyStreamChanged(deps, realm, { before: stream, after: updated, fields }, subscriberIds, activeUsers);
}
