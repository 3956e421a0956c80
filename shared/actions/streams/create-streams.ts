import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getStreamsByNames, putNewStream } from "../../data/streams.js";

import { realmUrl } from "../../domain/email.js";
import { defaultCanRemoveSubscribersGroup, StreamPostPolicy } from "../../domain/stream-permissions.js";
import { listActiveRealmUsers, type ActiveRealmUser } from "../../data/users.js";
import { streamCreationAudience } from "../../queries/streams/audience.js";
import { notifyDefaultStreams, notifyStreamCreated } from "./notify-streams.js";
import { renderStreamDescription } from "./render-description.js";

/** A stream to create, as validated by the caller. */
export interface NewStream {
  /** Stripped, checked with `checkStreamName`. */
  name: string;
  /** Markdown; newlines already replaced. @default "" */
  description?: string;
  /** @default false */
  invite_only?: boolean;
  /** @default false */
  is_web_public?: boolean;
  /** Ignored for public streams (always true); private streams default to false. */
  history_public_to_subscribers?: boolean;
  /** @default 1 (everyone) */
  stream_post_policy?: number;
  /** null inherits the organization's setting; -1 forever. @default null */
  message_retention_days?: number | null;
  /** Subscribe new users to it. @default false */
  is_default?: boolean;
}

/**
 * Creates streams (Zulip's `create_streams_if_needed`): allocates their
 * stream and recipient IDs (two counter updates for the whole batch, in
 * parallel), writes each stream with its unique-name claim (one transaction
 * per stream, all in parallel), then sends `stream` `create` events to
 * everyone who may see each new stream (public: every active non-guest,
 * web-public: every active user, private: administrators) and, when a
 * default stream was created, the `default_streams` event.
 *
 * Preconditions: the caller checked permissions, names and settings, and
 * that the names were free when it looked. A name claimed by a concurrent
 * request in the meantime is not an error: that stream is returned in
 * `existing` instead.
 *
 * @param creator recorded as `creator_id` (null for streams the system creates)
 * @param opts.activeUsers the realm's active users, when the caller already has them
 * @returns the created streams (input order) and the streams that won a race for a name
 */
export async function doCreateStreams(
  deps: Deps,
  realm: RealmRecord,
  creator: UserRecord | null,
  specs: NewStream[],
  opts: { activeUsers?: ActiveRealmUser[] } = {},
): Promise<{ created: StreamRecord[]; existing: StreamRecord[] }> {
  if (specs.length === 0) return { created: [], existing: [] };
  const url = realmUrl(realm, deps.config);
  const [firstStreamId, firstRecipientId, renderedDescriptions] = await Promise.all([
    allocateIds(deps, "stream", specs.length),
    allocateIds(deps, "recipient", specs.length),
    Promise.all(specs.map((spec) => renderStreamDescription(spec.description ?? "", url))),
  ]);
  const now = Math.floor(deps.clock.now() / 1000);
  const records: StreamRecord[] = specs.map((spec, i) => {
    const inviteOnly = spec.invite_only ?? false;
    const description = spec.description ?? "";
    return {
      realm_id: realm.id,
      stream_id: firstStreamId + i,
      name: spec.name,
      description,
      rendered_description: renderedDescriptions[i]!,
      invite_only: inviteOnly,
      is_web_public: spec.is_web_public ?? false,
      // Zulip: public streams always share history; private ones protect it unless asked.
      history_public_to_subscribers: inviteOnly ? (spec.history_public_to_subscribers ?? false) : true,
      stream_post_policy: spec.stream_post_policy ?? StreamPostPolicy.EVERYONE,
      message_retention_days: spec.message_retention_days ?? null,
      date_created: now,
      first_message_id: null,
      recipient_id: firstRecipientId + i,
      creator_id: creator ? creator.user_id : null,
      deactivated: false,
      is_default: spec.is_default ?? false,
      can_remove_subscribers_group: defaultCanRemoveSubscribersGroup(realm),
    };
  });
  const written = await Promise.all(records.map((record) => putNewStream(deps, record)));
  const created = records.filter((_, i) => written[i]);
  const lost = records.filter((_, i) => !written[i]).map((r) => r.name);
  const existingByName = lost.length > 0 ? await getStreamsByNames(deps, realm.id, lost) : new Map();
  const existing = lost.flatMap((name) => {
    const stream = existingByName.get(name.toLowerCase());
    return stream ? [stream] : [];
  });

  if (created.length > 0) {
    const activeUsers = opts.activeUsers ?? (await listActiveRealmUsers(deps, realm.id));
    // One after another: event keys order by write time, and clients see the streams in request order.
    for (const stream of created) {
      await notifyStreamCreated(deps, [stream], streamCreationAudience(stream, activeUsers));
    }
    if (created.some((s) => s.is_default)) await notifyDefaultStreams(deps, realm, activeUsers, created);
  }
  return { created, existing };
}
