import { JsonableError } from "../errors.js";

/**
 * The checks of a mobile device's registration (Zulip's `validate_token`
 * in `zerver/views/push_notifications.py` and its `ApnsAppId` parameter
 * type): pure, so the endpoints and their unit tests share them.
 */

/** Longest token accepted, in characters (Zulip's `validate_token`; `PushDeviceToken.token` is 4,096 long). */
export const MAX_PUSH_TOKEN_LENGTH = 4096;

/**
 * Longest iOS app ID (bundle ID) accepted. Zulip sets no limit; Apple's
 * bundle IDs are short, and the bound keeps the device item small.
 */
export const MAX_IOS_APP_ID_LENGTH = 255;

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Whether Python's `base64.b64decode(token)` (non-strict, as Zulip's
 * `b64_to_hex` calls it) would decode the token: non-ASCII text fails;
 * characters outside the base64 alphabet are skipped; a `=` ends the input
 * once it completes a group of four (a `=` too early is skipped too); the
 * data characters left must then make whole groups of four. So Zulip's own
 * example token `apple-tokenbb` (12 data characters) decodes, while a hex
 * token of 63 digits does not. CPython's `binascii.a2b_base64`, 3.11 and later.
 */
export function decodesAsLenientBase64(token: string): boolean {
  // Python refuses a str argument holding non-ASCII characters before decoding.
  if (!/^[\x00-\x7f]*$/.test(token)) return false;
  let quadPos = 0;
  let pads = 0;
  for (const ch of token) {
    if (ch === "=") {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return true;
      continue;
    }
    if (!BASE64_ALPHABET.test(ch)) continue;
    quadPos = (quadPos + 1) % 4;
  }
  return quadPos === 0;
}

/**
 * Zulip's `validate_token` for a device of `kind` (1 APNs, 2 FCM).
 * @throws JsonableError `Empty or invalid length token` (empty, or longer than {@link MAX_PUSH_TOKEN_LENGTH} characters)
 * @throws JsonableError `Invalid APNS token` (an APNs token {@link decodesAsLenientBase64} refuses)
 */
export function validatePushToken(token: string, kind: number): void {
  // Python counts code points, not UTF-16 units.
  if (token === "" || [...token].length > MAX_PUSH_TOKEN_LENGTH) throw new JsonableError("Empty or invalid length token");
  if (kind === 1 && !decodesAsLenientBase64(token)) throw new JsonableError("Invalid APNS token");
}

/**
 * Zulip's `ApnsAppId`: letters, digits, dots and hyphens (`org.zulip.Zulip`).
 * The message is the one Zulip's parameter parser gives a pattern mismatch.
 * @throws JsonableError `appid has invalid format`
 */
export function validateApnsAppId(appId: string): void {
  if (appId.length > MAX_IOS_APP_ID_LENGTH || !/^[.a-zA-Z0-9-]+$/.test(appId)) throw new JsonableError("appid has invalid format");
}
