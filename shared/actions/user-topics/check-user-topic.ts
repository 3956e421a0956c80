import type { Deps } from "../../deps.js";
import { InvalidChannelIdError, InvalidChannelNameError, JsonableError } from "../../errors.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { accessStream } from "../../access/stream.js";
import { getStream, getStreamIdByName } from "../../data/streams.js";
import { normalizeTopic } from "../../domain/message-fields.js";
import { VisibilityPolicy } from "../../queries/muting/muting.js";
import { doSetUserTopicVisibilityPolicy } from "./user-topics.js";

const POLICIES: ReadonlySet<number> = new Set(Object.values(VisibilityPolicy));

/**
 * A stream for removing a topic policy (Zulip's
 * `access_stream_for_unmute_topic_by_id`/`_by_name`): any stream of the
 * realm, with no access check, so that users can clear policies of
 * streams they can no longer see.
 * @throws `error()` when the stream does not exist
 */
async function streamToUnmute(
  deps: Deps,
  realm: RealmRecord,
  ref: { id: number } | { name: string },
  error: () => JsonableError,
): Promise<StreamRecord> {
  const id = "id" in ref ? ref.id : await getStreamIdByName(deps, realm.id, ref.name);
  const stream = id === undefined ? undefined : await getStream(deps, realm.id, id);
  if (!stream) throw error();
  return stream;
}

/**
 * `POST /user_topics` (https://zulip.com/api/update-user-topic; Zulip's
 * `update_user_topic` view): validates the policy and the topic, finds the
 * stream (any stream of the realm for policy 0; otherwise one the caller
 * may access, so private streams stay invisible), then sets the policy.
 * @throws JsonableError 400 `Invalid visibility_policy`, `Invalid channel ID`,
 *   and the topic errors of `normalizeTopic`
 */
export async function checkUpdateUserTopic(
  deps: Deps,
  realm: RealmRecord,
  me: UserRecord,
  req: { stream_id: number; topic: string; visibility_policy: number },
): Promise<void> {
  if (!POLICIES.has(req.visibility_policy)) throw new JsonableError("Invalid visibility_policy");
  const topic = normalizeTopic(req.topic);
  const stream =
    req.visibility_policy === VisibilityPolicy.INHERIT
      ? await streamToUnmute(deps, realm, { id: req.stream_id }, () => new InvalidChannelIdError())
      : (await accessStream(deps, me, realm, req.stream_id, { error: () => new InvalidChannelIdError() })).stream;
  await doSetUserTopicVisibilityPolicy(deps, realm, me, stream, topic, req.visibility_policy);
}

/**
 * `PATCH /users/me/subscriptions/muted_topics` (https://zulip.com/api/mute-topic;
 * Zulip's `update_muted_topic` view): `add` mutes the topic of a stream the
 * caller may access, `remove` sets it back to "inherit". Like Zulip since
 * feature level 170, muting a muted topic or unmuting a topic that is not
 * muted succeeds without change.
 * @throws JsonableError 400 `Please supply 'stream'.` (neither stream nor stream_id),
 *   `Please choose one: 'stream' or 'stream_id'.` (both), `Invalid channel ID`,
 *   `Invalid channel name '<name>'` (add), `Topic is not muted` (remove of a
 *   missing stream), and the topic errors of `normalizeTopic`
 */
export async function checkMuteTopic(
  deps: Deps,
  realm: RealmRecord,
  me: UserRecord,
  req: { stream?: string; stream_id?: number; topic: string; op: "add" | "remove" },
): Promise<void> {
  if (req.stream === undefined && req.stream_id === undefined) throw new JsonableError("Please supply 'stream'.");
  if (req.stream !== undefined && req.stream_id !== undefined) {
    throw new JsonableError("Please choose one: 'stream' or 'stream_id'.");
  }
  const topic = normalizeTopic(req.topic);
  const ref = req.stream_id !== undefined ? { id: req.stream_id } : { name: req.stream! };
  let stream: StreamRecord;
  if (req.op === "remove") {
    stream = await streamToUnmute(deps, realm, ref, () => new JsonableError("Topic is not muted"));
  } else {
    const name = "name" in ref ? ref.name : undefined;
    const error = () => (name === undefined ? new InvalidChannelIdError() : new InvalidChannelNameError(name));
    const id = "id" in ref ? ref.id : await getStreamIdByName(deps, realm.id, ref.name);
    if (id === undefined) throw error();
    stream = (await accessStream(deps, me, realm, id, { error })).stream;
  }
  const policy = req.op === "add" ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT;
  await doSetUserTopicVisibilityPolicy(deps, realm, me, stream, topic, policy);
}
