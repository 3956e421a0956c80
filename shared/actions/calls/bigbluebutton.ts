import { randomInt } from "node:crypto";
import type { Deps } from "../../deps.js";
import type { UserRecord } from "../../data/records/user.js";

import {
  bigBlueButtonApiUrl,
  bigBlueButtonServer,
  signBigBlueButtonCall,
  verifyBigBlueButtonCall,
  type BigBlueButtonServer,
} from "../../domain/video-calls.js";
import { JsonableError } from "../../errors.js";

/** How long a call to the BigBlueButton server may take, in milliseconds (Zulip's video-call HTTP timeout, 5 s). */
export const BIGBLUEBUTTON_TIMEOUT_MS = 5000;

/** The site-root path of the join links {@link doCreateBigBlueButtonCall} answers. */
export const BIGBLUEBUTTON_JOIN_PATH = "/calls/bigbluebutton/join";

/**
 * `GET /calls/bigbluebutton/create`
 * (https://zulip.com/api/create-big-blue-button-video-call; Zulip's
 * `get_bigbluebutton_url`): a new meeting ID `zulip-<12 random digits>` and
 * a signed link that creates and joins it. Nothing is stored and nothing is
 * asked of the BigBlueButton server yet: the link carries the meeting, and
 * the server is called when someone follows it. Answers a link even when no
 * server is configured, as Zulip does; following it then says so.
 * @param meetingName the meeting's name (length bounded by the endpoint)
 * @param voiceOnly cameras locked off for everyone but moderators
 * @returns `/calls/bigbluebutton/join?bigbluebutton=<signed call>`, relative to the site root
 */
export function doCreateBigBlueButtonCall(deps: Pick<Deps, "config">, user: UserRecord, meetingName: string, voiceOnly: boolean): string {
  const signed = signBigBlueButtonCall(bigBlueButtonServer(deps.config), {
    meeting_id: `zulip-${randomInt(100_000_000_000, 1_000_000_000_000)}`,
    name: meetingName,
    lock_settings_disable_cam: voiceOnly,
    moderator: user.user_id,
  });
  // The signed value is base64url and `.`: nothing in it needs percent-encoding.
  return `${BIGBLUEBUTTON_JOIN_PATH}?bigbluebutton=${signed}`;
}

/** Options of {@link joinBigBlueButtonUrl}; tests replace the HTTP client. */
export interface JoinOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default {@link BIGBLUEBUTTON_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * `GET /calls/bigbluebutton/join` (Zulip's `join_bigbluebutton`): checks a
 * link of {@link doCreateBigBlueButtonCall}, creates its meeting on the
 * BigBlueButton server (`api/create`; creating a running meeting again is
 * harmless, and recreates one that ended) and returns the `api/join` URL
 * the user is sent to: as moderator for the link's creator, as viewer for
 * anyone else, under their full name, bound to this creation's `createTime`.
 * The link is not tied to an organization: any logged-in user who has it
 * may join, as in Zulip.
 * @param signed the link's `bigbluebutton` parameter
 * @returns the absolute `api/join` URL, checksummed with the shared secret
 * @throws JsonableError 400 `BigBlueButton is not configured.` without a server URL and secret
 * @throws JsonableError 400 `Invalid signature.` for a value this server did not sign with its key
 * @throws JsonableError 400 `Error connecting to the BigBlueButton server.` on a network failure, a timeout or a non-2xx answer
 * @throws JsonableError 400 `Error authenticating to the BigBlueButton server.` when it refuses the checksum (`checksumError`)
 * @throws JsonableError 400 `BigBlueButton server returned an unexpected error.` for any answer but `SUCCESS` with a `createTime`
 */
export async function joinBigBlueButtonUrl(
  deps: Pick<Deps, "config" | "log">,
  user: UserRecord,
  signed: string,
  options: JoinOptions = {},
): Promise<string> {
  const server = bigBlueButtonServer(deps.config);
  if (!server) throw new JsonableError("BigBlueButton is not configured.");
  const call = verifyBigBlueButtonCall(server, signed);
  if (!call) throw new JsonableError("Invalid signature.");

  const createUrl = bigBlueButtonApiUrl(server, "create", [
    ["meetingID", call.meeting_id],
    ["name", call.name],
    ["lockSettingsDisableCam", String(call.lock_settings_disable_cam)],
  ]);
  const answer = await bigBlueButtonGet(deps, createUrl, options);
  if (answer.messageKey === "checksumError") throw new JsonableError("Error authenticating to the BigBlueButton server.");
  if (answer.returncode !== "SUCCESS" || !answer.createTime) {
    deps.log.warn("BigBlueButton create failed", { returncode: answer.returncode, messageKey: answer.messageKey });
    throw new JsonableError("BigBlueButton server returned an unexpected error.");
  }
  return bigBlueButtonApiUrl(server, "join", [
    ["meetingID", call.meeting_id],
    // Only the link's creator moderates, so only they can turn a voice call into a video call.
    ["role", call.moderator === user.user_id ? "MODERATOR" : "VIEWER"],
    ["fullName", user.full_name],
    // Binds the join URL to this creation of the meeting: it stops working once the meeting is recreated.
    ["createTime", answer.createTime],
  ]);
}

/** The top-level text fields of a BigBlueButton API answer (`<response><returncode>…`) this server reads. */
interface ApiAnswer {
  returncode?: string;
  messageKey?: string;
  createTime?: string;
}

/**
 * GETs a BigBlueButton API URL and reads its XML answer. The XML parser is
 * loaded on the first join, so it costs the group's cold start nothing.
 * @throws JsonableError `Error connecting to the BigBlueButton server.` on a network failure, a timeout or a non-2xx status
 * @throws JsonableError `BigBlueButton server returned an unexpected error.` when the body is not a `<response>` document
 */
async function bigBlueButtonGet(deps: Pick<Deps, "log">, url: string, options: JoinOptions): Promise<ApiAnswer> {
  const get = options.fetch ?? globalThis.fetch;
  let text: string;
  try {
    const response = await get(url, { signal: AbortSignal.timeout(options.timeoutMs ?? BIGBLUEBUTTON_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    deps.log.warn("BigBlueButton server unreachable", { error: String(error) });
    throw new JsonableError("Error connecting to the BigBlueButton server.");
  }
  const { XMLParser } = await import("fast-xml-parser");
  let document: unknown;
  try {
    // Values stay text (no number parsing: `createTime` goes back to the server as sent); no entities, no attributes.
    document = new XMLParser({ parseTagValue: false, ignoreAttributes: true, processEntities: false }).parse(text, true);
  } catch {
    document = undefined;
  }
  const response = (document as { response?: unknown } | undefined)?.response;
  if (typeof response !== "object" || response === null) throw new JsonableError("BigBlueButton server returned an unexpected error.");
  const field = (name: keyof ApiAnswer) => {
    const value = (response as Record<string, unknown>)[name];
    return typeof value === "string" ? value.trim() : undefined;
  };
  return { returncode: field("returncode"), messageKey: field("messageKey"), createTime: field("createTime") };
}
