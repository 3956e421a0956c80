import type { StreamRecord } from "../data/records/stream.js";

import { StreamPostPolicy } from "../domain/stream-permissions.js";

/**
 * A stream on the wire (OpenAPI `BasicChannel` at feature level 283): the
 * fields of `streamSchema` in `shared/events/schemas.ts`, which the
 * `stream` events that carry it check at compile time.
 */
export interface StreamWireObject {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  /** UNIX seconds. */
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  /** 1 everyone, 2 administrators, 3 full members, 4 moderators. */
  stream_post_policy: number;
  /** null: the organization's setting; -1: forever. */
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  /** Deprecated alias of `stream_post_policy` 2. */
  is_announcement_only: boolean;
  can_remove_subscribers_group: number;
  /** Always null: no traffic statistics are kept. */
  stream_weekly_traffic: number | null;
}

/** A stream of `GET /streams` with `include_default`: the stream object and whether it is a default stream. */
export type StreamWithDefaultWireObject = StreamWireObject & { is_default: boolean };

/** A default stream on the wire (OpenAPI `DefaultChannel`): a stream object without `stream_weekly_traffic`. */
export type DefaultStreamWireObject = Omit<StreamWireObject, "stream_weekly_traffic">;

/**
 * The wire shape of a stream (https://zulip.com/api/get-stream-by-id,
 * OpenAPI `BasicChannel` at feature level 283), as served by
 * `GET /streams`, `GET /streams/{id}`, `POST /register` (`streams`,
 * `never_subscribed`) and the `stream` `create`/`delete` events.
 *
 * - `is_announcement_only` is the deprecated alias of `stream_post_policy` 2.
 * - `stream_weekly_traffic` is null: we keep no traffic statistics (Zulip
 *   sends null too when it has none).
 */
export function streamToWire(stream: StreamRecord): StreamWireObject {
  return {
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
}

/**
 * The wire shape of a stream of `GET /streams` with `include_default`
 * (https://zulip.com/api/get-streams): {@link streamToWire} followed by
 * `is_default`, whether new users join it.
 */
export function streamWithDefaultToWire(stream: StreamRecord): StreamWithDefaultWireObject {
  return { ...streamToWire(stream), is_default: stream.is_default };
}

/**
 * The wire shape of a default stream (OpenAPI `DefaultChannel` at feature
 * level 283): the stream object without `stream_weekly_traffic`, which that
 * schema does not allow. Used by the `default_streams` event and
 * `realm_default_streams` of `POST /register`.
 */
export function defaultStreamToWire(stream: StreamRecord): DefaultStreamWireObject {
  const { stream_weekly_traffic: _traffic, ...wire } = streamToWire(stream);
  return wire;
}
