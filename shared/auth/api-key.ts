import { createHash, randomInt } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Generates a 32-character alphanumeric API key, as Zulip's are, from a CSPRNG. */
export function generateApiKey(): string {
  let key = "";
  for (let i = 0; i < 32; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

/**
 * SHA-256 (hex) of an API key: the lookup key of the key's item, so that
 * the table's keys (visible in metrics, logs and exports) never hold a secret.
 */
export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}
