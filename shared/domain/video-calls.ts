import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Config } from "../config.js";

/** One entry of `realm_available_video_chat_providers`: the name settings show and the `video_chat_provider` value. */
export interface VideoChatProvider {
  name: string;
  id: number;
}

/**
 * Zulip's video call providers by key, with their fixed IDs (Zulip's
 * `Realm.VIDEO_CHAT_PROVIDERS`). Zoom (3 and 5) is left out: this server
 * has no Zoom integration. ID 2 was Google Hangouts, which Zulip removed.
 */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: "None", id: 0 },
  jitsi_meet: { name: "Jitsi Meet", id: 1 },
  big_blue_button: { name: "BigBlueButton", id: 4 },
} as const satisfies Record<string, VideoChatProvider>;

/** What this server needs to reach a BigBlueButton server: its API base URL (ending in `/`) and shared secret. */
export interface BigBlueButtonServer {
  url: string;
  secret: string;
}

/**
 * The configured BigBlueButton server, or null when `BIGBLUEBUTTON_URL` or
 * `BIGBLUEBUTTON_SECRET` is unset (Zulip needs both, as here). The URL gets
 * a trailing `/`, so that `api/create` lands below it whichever way the
 * operator wrote it.
 */
export function bigBlueButtonServer(config: Pick<Config, "BIGBLUEBUTTON_URL" | "BIGBLUEBUTTON_SECRET">): BigBlueButtonServer | null {
  const { BIGBLUEBUTTON_URL: url, BIGBLUEBUTTON_SECRET: secret } = config;
  if (!url || !secret) return null;
  return { url: url.endsWith("/") ? url : `${url}/`, secret };
}

/**
 * `realm_available_video_chat_providers` of `POST /register`
 * (https://zulip.com/api/register-queue): the providers an administrator
 * may pick for `video_chat_provider`. BigBlueButton is listed only when a
 * server is configured, as Zulip lists it only with `BIG_BLUE_BUTTON_URL`
 * and `BIG_BLUE_BUTTON_SECRET` set.
 * @returns a new object keyed by provider key (`disabled`, `jitsi_meet`, `big_blue_button`)
 */
export function availableVideoChatProviders(
  config: Pick<Config, "BIGBLUEBUTTON_URL" | "BIGBLUEBUTTON_SECRET">,
): Record<string, VideoChatProvider> {
  const { big_blue_button, ...always } = VIDEO_CHAT_PROVIDERS;
  return bigBlueButtonServer(config) ? { ...always, big_blue_button } : { ...always };
}

/**
 * What a BigBlueButton join link carries (the fields Zulip's
 * `get_bigbluebutton_url` signs): the meeting, its name, whether cameras are
 * locked off (`voice_only`), and the ID of the user who created the link,
 * who joins as moderator.
 */
export const BigBlueButtonCallSchema = z.strictObject({
  meeting_id: z.string().regex(/^zulip-\d{12}$/),
  name: z.string(),
  lock_settings_disable_cam: z.boolean(),
  moderator: z.int().positive(),
});
export type BigBlueButtonCall = z.infer<typeof BigBlueButtonCallSchema>;

/**
 * Key of the join links' HMAC when no BigBlueButton server is configured:
 * random per process, because such links are refused ("BigBlueButton is not
 * configured.") before their signature is checked, and must not verify once
 * a server is configured.
 */
const UNCONFIGURED_LINK_KEY = randomBytes(32);

/**
 * The key that signs join links: derived from the BigBlueButton shared
 * secret (HKDF-SHA256, its own `info`), so that the links need no second
 * secret to deploy and rotate. Whoever holds the shared secret can already
 * create and join any meeting on that server directly, so the links give
 * them nothing more; a rotated secret invalidates outstanding links, which
 * a new "create" replaces.
 */
function linkKey(server: BigBlueButtonServer | null): Buffer {
  if (!server) return UNCONFIGURED_LINK_KEY;
  return Buffer.from(hkdfSync("sha256", server.secret, "", "zulip bigbluebutton join link", 32));
}

const mac = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest();

/**
 * Signs a call's fields into the `bigbluebutton` parameter of a join link:
 * `<base64url JSON>.<base64url HMAC-SHA256 of the first part>`. Tamper-proof,
 * not secret: the fields are readable by whoever has the link (as in
 * Zulip's signed value).
 */
export function signBigBlueButtonCall(server: BigBlueButtonServer | null, call: BigBlueButtonCall): string {
  const payload = Buffer.from(JSON.stringify(call)).toString("base64url");
  return `${payload}.${mac(linkKey(server), payload).toString("base64url")}`;
}

/**
 * Checks and reads a join link's `bigbluebutton` parameter signed by
 * {@link signBigBlueButtonCall} with the same server's key.
 * @returns the call, or null when the value is malformed, its signature does not match, or its fields are not a call's
 */
export function verifyBigBlueButtonCall(server: BigBlueButtonServer | null, signed: string): BigBlueButtonCall | null {
  const parts = signed.split(".");
  if (parts.length !== 2) return null;
  const [payload, signature] = parts as [string, string];
  const expected = mac(linkKey(server), payload);
  const given = Buffer.from(signature, "base64url");
  // Compared over the bytes, in constant time; base64url decoding drops stray characters, so the text must round-trip too.
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString("base64url") !== signature) return null;
  try {
    const parsed = BigBlueButtonCallSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Percent-encodes a query value as RFC 3986 asks (every byte but
 * `A-Z a-z 0-9 - . _ ~`). BigBlueButton checks its checksum over the query
 * string exactly as sent, so any consistent encoding works; this one leaves
 * no character whose encoding a proxy might change.
 */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A BigBlueButton API URL (https://docs.bigbluebutton.org/development/api/#api-security-model):
 * `<server>api/<call>?<query>&checksum=<SHA-256 hex of call name, query and shared secret>`.
 * @param call the API call's name, e.g. `create`, `join`
 * @param params query parameters, in the order they are sent
 */
export function bigBlueButtonApiUrl(server: BigBlueButtonServer, call: string, params: [string, string][]): string {
  const query = params.map(([name, value]) => `${name}=${encodeQueryValue(value)}`).join("&");
  const checksum = createHash("sha256").update(`${call}${query}${server.secret}`).digest("hex");
  return `${server.url}api/${call}?${query}&checksum=${checksum}`;
}
