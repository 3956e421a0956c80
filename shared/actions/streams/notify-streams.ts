import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import { listRealmStreams } from "../../data/streams.js";
import type { ActiveRealmUser } from "../../data/users.js";
import { isGuest } from "../../domain/roles.js";
import { sendEvent } from "../../events/publish.js";
import type { EventOf } from "../../events/types.js";
import {
  defaultStreamToWire,
  streamToWire,
  type DefaultStreamWireObject,
  type StreamWireObject,
} from "../../wire/stream.js";

/**
 * The events that describe streams (https://zulip.com/api/get-events#stream-create
 * and the following `stream` and `default_streams` sections), built typed
 * and sent by the stream actions. Who gets each is the caller's decision
 * (`streamAudience` in `shared/queries/streams/audience.ts`).
 */

/** `true` when `A` and `B` have the same fields, else `false`. */
export type SameFields<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;

/** Compiles only when `T` is `true`. */
export type Holds<T extends true> = T;

/**
 * The wire shapes the stream events carry have exactly the fields of the
 * events' schemas, so a field added on one side only does not compile.
 */
type _StreamWireIsTheSchema = Holds<SameFields<StreamWireObject, EventOf<"stream/create">["streams"][number]>>;
type _DefaultStreamWireIsTheSchema = Holds<
  SameFields<DefaultStreamWireObject, EventOf<"default_streams">["default_streams"][number]>
>;

/** The changes a `stream` `update` event may carry besides `property` and `value`. */
export type StreamUpdateExtras = Pick<
  EventOf<"stream/update">,
  "rendered_description" | "history_public_to_subscribers" | "is_web_public"
>;

/** A `stream` `delete` event describing `streams` (https://zulip.com/api/get-events#stream-delete). */
export function streamDeleteEvent(streams: StreamRecord[]): EventOf<"stream/delete"> {
  return { type: "stream", op: "delete", streams: streams.map((s) => streamToWire(s)) };
}

/**
 * Tells `userIds` that streams exist (Zulip's `send_stream_creation_event`:
 * https://zulip.com/api/get-events#stream-create), each stream as a whole
 * stream object. One event, one write per recipient (deferred above 200).
 */
export async function notifyStreamCreated(deps: Deps, streams: StreamRecord[], userIds: number[]): Promise<void> {
  const event: EventOf<"stream/create"> = { type: "stream", op: "create", streams: streams.map((s) => streamToWire(s)) };
  await sendEvent(deps, event, userIds);
}

/**
 * Tells `userIds` that they can no longer see streams, or that the streams
 * were archived (Zulip's `send_stream_deletion_event`:
 * https://zulip.com/api/get-events#stream-delete).
 */
export async function notifyStreamDeleted(deps: Deps, streams: StreamRecord[], userIds: number[]): Promise<void> {
  await sendEvent(deps, streamDeleteEvent(streams), userIds);
}

/**
 * Tells `userIds` that one property of a stream changed (Zulip's
 * `do_change_stream_*` functions: https://zulip.com/api/get-events#stream-update).
 * @param name the stream's name as the recipients know it (before a rename)
 * @param value the property's new value
 * @param extras the fields some properties carry along (`rendered_description`
 *   with `description`; `history_public_to_subscribers` and `is_web_public` with `invite_only`)
 */
export async function notifyStreamUpdated(
  deps: Deps,
  stream: { stream_id: number; name: string },
  property: string,
  value: EventOf<"stream/update">["value"],
  userIds: number[],
  extras: StreamUpdateExtras = {},
): Promise<void> {
  const event: EventOf<"stream/update"> = {
    type: "stream",
    op: "update",
    property,
    value,
    stream_id: stream.stream_id,
    name: stream.name,
    ...extras,
  };
  await sendEvent(deps, event, userIds);
}

/**
 * Sends the realm's current default streams to its active non-guest users
 * (Zulip's `notify_default_streams`: a `default_streams` event carrying the
 * whole list, https://zulip.com/api/get-events#default_streams), ordered by
 * stream ID. One Query of the realm's streams.
 * @param activeUsers the realm's active users
 * @param justWritten streams the caller has just changed: they replace what the
 *   (eventually consistent) Query returns for them
 */
export async function notifyDefaultStreams(
  deps: Deps,
  realm: RealmRecord,
  activeUsers: ActiveRealmUser[],
  justWritten: StreamRecord[] = [],
): Promise<void> {
  const fresh = new Map(justWritten.map((s) => [s.stream_id, s]));
  const listed = await listRealmStreams(deps, realm.id);
  const all = new Map(listed.map((s) => [s.stream_id, fresh.get(s.stream_id) ?? s]));
  for (const s of justWritten) all.set(s.stream_id, s);
  const defaults = [...all.values()]
    .filter((s) => s.is_default && !s.deactivated)
    .sort((a, b) => a.stream_id - b.stream_id);
  const event: EventOf<"default_streams"> = {
    type: "default_streams",
    default_streams: defaults.map((s) => defaultStreamToWire(s)),
  };
  await sendEvent(deps, event, activeUsers.filter((u) => !isGuest(u)).map((u) => u.user_id));
}
