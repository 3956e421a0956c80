import type { StreamRecord } from "../data/records/stream.js";

import { StreamPostPolicy } from "../domain/stream-permissions.js";

/** A wire object of a stream (Stream or subscription object): any fields, `stream_id` and `name` typed. */
export type StreamWireObject = Record<string, unknown> & { stream_id: number; name: string };

/**
 * The wire shape of a stream (spec "Stream"; OpenAPI `BasicChannel` at
 * feature level 283), as served by `GET /streams`, `GET /streams/{id}` and
 * the `stream` `create`/`delete` events.
 *
 * - `is_announcement_only` is the deprecated alias of `stream_post_policy` 2.
 * - `stream_weekly_traffic` is null: we keep no traffic statistics (Zulip
 *   sends null too when it has none).
 * - `is_default` only when `opts.isDefault` is given (the `include_default`
 *   parameter of `GET /streams`).
 * @param opts.isDefault whether the stream is a default stream; omit to leave the field out
 */
export function streamToWire(stream: StreamRecord, opts: { isDefault?: boolean } = {}): StreamWireObject {
  const wire: StreamWireObject = {
    stream_id: stream.stream_id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    stream_post_policy: stream.stream_post_policy,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    first_message_id: stream.first_message_id,
    is_announcement_only: stream.stream_post_policy === StreamPostPolicy.ADMINS,
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
    stream_weekly_traffic: null,
  };
  if (opts.isDefault !== undefined) wire.is_default = opts.isDefault;
  return wire;
}

/**
 * The wire shape of a default stream (OpenAPI `DefaultChannel` at feature
 * level 283): the stream object without `stream_weekly_traffic`, which that
 * schema does not allow. Used by the `default_streams` event and
 * `realm_default_streams` of `POST /register`.
 */
export function defaultStreamToWire(stream: StreamRecord): StreamWireObject {
  const { stream_weekly_traffic: _traffic, ...wire } = streamToWire(stream);
  return wire as StreamWireObject;
}
