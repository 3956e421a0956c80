import { z } from "zod";
import { boundedList, param } from "../../shared/http/params.js";
import { MAX_STREAM_DESCRIPTION_LENGTH, STREAM_POST_POLICY_VALUES } from "../../shared/domain/stream-permissions.js";

/**
 * Parameter declarations shared by the `streams` endpoints, with Zulip's
 * wire types (JSON-encoded lists, booleans and integers; raw strings).
 */

/**
 * Most streams one subscription request may name. Zulip sets no limit; each
 * stream costs writes (and, when created, several items and events), so one
 * request must finish well within the Lambda deadline.
 */
export const MAX_SUBSCRIPTIONS_PER_REQUEST = 100;

/** Most users one subscription request may name in `principals`; see {@link MAX_SUBSCRIPTIONS_PER_REQUEST}. */
export const MAX_PRINCIPALS_PER_REQUEST = 1000;

/** `principals`: a JSON list of user IDs (preferred) or of API emails (feature level 9), at most 1,000. */
export const principalsParam = () =>
  param
    .json<(number | string)[]>(
      boundedList("principals", z.unknown(), MAX_PRINCIPALS_PER_REQUEST).pipe(z.union([z.array(z.int()), z.array(z.string())])),
    )
    .optional();

/** `stream_post_policy`: 1 to 4 (`Invalid stream_post_policy` otherwise). */
export const postPolicySchema = z.int().refine((v) => STREAM_POST_POLICY_VALUES.includes(v));

/** `message_retention_days`: `realm_default`, `unlimited` or a JSON integer; checked by the action. */
export const retentionParam = () => param.jsonOrString<string | number>(z.union([z.string(), z.number()]));

/** A stream description: at most 1024 characters. */
export const descriptionSchema = z.string().max(MAX_STREAM_DESCRIPTION_LENGTH);
