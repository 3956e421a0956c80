import { createHash, randomBytes } from "node:crypto";

/**
 * A new confirmation key, as Zulip's `generate_key`: 15 random bytes in
 * lower-case base32, 24 characters (`[a-z2-7]`), for links such as
 * `/join/<key>/` and `/accounts/do_confirm/<key>`.
 */
export function generateConfirmationKey(): string {
  const bytes = randomBytes(15);
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** The SHA-256 hex of a confirmation key: what the table stores (`shared/data/confirmations.ts`). */
export function hashConfirmationKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Whether a string has a confirmation key's form (24 of `[a-z2-7]`), checked before any read. */
export function isConfirmationKey(key: string): boolean {
  return /^[a-z2-7]{24}$/.test(key);
}
