import { z } from "zod";
import { boundedList, param } from "../../shared/http/params.js";

/** Most streams one invitation names (a bound; Zulip sets none). */
const MAX_INVITE_STREAMS = 500;

/**
 * The parameters `POST /invites` and `POST /invites/multiuse` share
 * (https://zulip.com/api/send-invites, https://zulip.com/api/create-invite-link):
 * `invite_expires_in_minutes` (JSON integer or `null` for never; absent:
 * the server's default), `invite_as`, `stream_ids`,
 * `include_realm_default_subscriptions`, `notify_referrer_on_join`.
 */
export const inviteOptionSpecs = {
  invite_expires_in_minutes: param.json(z.int().nullable()).optional(),
  invite_as: param.int().default(400),
  include_realm_default_subscriptions: param.bool().default(false),
  notify_referrer_on_join: param.bool().default(true),
};

/** `stream_ids`, required by `POST /invites` (an empty list allowed since feature level 180). */
export const streamIdList = boundedList("stream_ids", z.int(), MAX_INVITE_STREAMS);
