import { z } from "zod";
import { doCreateBigBlueButtonCall, joinBigBlueButtonUrl } from "../../shared/actions/calls/bigbluebutton.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { RedirectResult } from "../../shared/http/response.js";

/**
 * Longest `meeting_name`, in characters. Zulip sets none; the name travels
 * inside the join link's query string (base64url, 4 bytes per 3), and 500
 * keeps the link far below the 8 KiB a URL may safely have, while the web
 * app's names ("<channel> meeting", a topic) are well under it.
 */
export const MEETING_NAME_MAX_LENGTH = 500;

/** Parameters of `GET /calls/bigbluebutton/create`. */
const CREATE_SPECS = {
  meeting_name: param.string(z.string().max(MEETING_NAME_MAX_LENGTH)),
  voice_only: param.bool().default(false),
};

/** Parameters of `GET /calls/bigbluebutton/join`: the signed call of a join link (base64url and one `.`). */
const JOIN_SPECS = {
  bigbluebutton: param.string(z.string().max(8192)),
};

/**
 * `GET /calls/bigbluebutton/create`
 * (https://zulip.com/api/create-big-blue-button-video-call): `meeting_name`
 * (required) and `voice_only` (JSON boolean, default false). Answers `url`,
 * a site-root join link (see `doCreateBigBlueButtonCall`).
 */
export const createBigBlueButtonCall: Endpoint = async (ctx) => {
  const { meeting_name, voice_only } = parseParams(ctx.params, CREATE_SPECS);
  return { url: doCreateBigBlueButtonCall(ctx.deps, ctx.user, meeting_name, voice_only) };
};

/**
 * `GET /calls/bigbluebutton/join` at the site root (Zulip's
 * `join_bigbluebutton`, not in the OpenAPI file): for a logged-in user (the
 * session cookie, or API credentials), a 302 to the BigBlueButton server's
 * join URL of the link's meeting; the errors of `joinBigBlueButtonUrl` as
 * Zulip's JSON envelope otherwise.
 */
export const joinBigBlueButton: Endpoint = async (ctx) => {
  const { bigbluebutton } = parseParams(ctx.params, JOIN_SPECS);
  return new RedirectResult(await joinBigBlueButtonUrl(ctx.deps, ctx.user, bigbluebutton));
};
