import { z } from "zod";
import { param } from "../../shared/http/params.js";
import { MAX_STREAM_DESCRIPTION_LENGTH, STREAM_POST_POLICY_VALUES } from "../../shared/domain/stream-permissions.js";

/**
 * Parameter declarations shared by the `streams` endpoints, with Zulip's
 * wire types (JSON-encoded lists, booleans and integers; raw strings).
 */

/** `principals`: a JSON list of user IDs (preferred) or of API emails (feature level 9). */
export const principalsParam = () =>
  param.json<(number | string)[]>(z.union([z.array(z.int()), z.array(z.string())])).optional();

/** `stream_post_policy`: 1 to 4 (`Invalid stream_post_policy` otherwise). */
export const postPolicySchema = z.int().refine((v) => STREAM_POST_POLICY_VALUES.includes(v));

/** `message_retention_days`: `realm_default`, `unlimited` or a JSON integer; checked by the action. */
export const retentionParam = () => param.jsonOrString<string | number>(z.union([z.string(), z.number()]));

/** A stream description: at most 1024 characters. */
export const descriptionSchema = z.string().max(MAX_STREAM_DESCRIPTION_LENGTH);
