import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt's block size and parallelism, OWASP's recommended r=8, p=1; the
 * cost N = 2^`PASSWORD_HASH_LOG2_N` comes from the configuration (2^17 by
 * default, OWASP's recommendation: 128 MiB and about 0.3–0.5 s of CPU per
 * hash).
 */
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/**
 * The largest cost a stored hash may name (2^20: 1 GiB of memory). A hash
 * string is ours, but a damaged one must not make a login allocate without
 * bound.
 */
const MAX_LOG2_N = 20;

/** The parameters a stored hash names: `scrypt$N$r$p$<salt>$<hash>`. */
interface StoredHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/**
 * Memory scrypt needs for N, r, p is about 128·N·r·p bytes; node refuses to
 * run past `maxmem`, so it gets that plus 1 MiB of headroom for its own
 * buffers (for N=2^17, r=8, p=1: 129 MiB).
 */
export function scryptMaxmem(n: number, r: number = R, p: number = P): number {
  return 128 * n * r * p + 1024 * 1024;
}

function scryptAsync(password: string, salt: Buffer, opts: ScryptOptions & { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, { ...opts, maxmem: scryptMaxmem(opts.N, opts.r, opts.p) }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

function parseStoredHash(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash || rest.length > 0) return undefined;
  const [N, rr, pp] = [Number(n), Number(r), Number(p)];
  const powerOfTwo = Number.isInteger(N) && N >= 2 && N <= 2 ** MAX_LOG2_N && (N & (N - 1)) === 0;
  if (!powerOfTwo || !Number.isInteger(rr) || rr < 1 || rr > 32 || !Number.isInteger(pp) || pp < 1 || pp > 16) return undefined;
  return { n: N, r: rr, p: pp, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

/**
 * Hashes a password with scrypt (N = 2^`log2N`, r=8, p=1) and a random
 * 16-byte salt; the parameters travel in the result, so that a later cost
 * change can tell old hashes apart ({@link passwordHashNeedsUpgrade}).
 * Implements OWASP's password-storage guidance as Zulip's hasher settings
 * (`PASSWORD_HASHERS`) do.
 * @param log2N the cost exponent, `config.PASSWORD_HASH_LOG2_N`
 * @returns `scrypt$N$r$p$<salt base64>$<hash base64>`
 */
export async function hashPassword(password: string, log2N: number): Promise<string> {
  const n = 2 ** log2N;
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, { N: n, r: R, p: P });
  return ["scrypt", n, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * A hash of a password nobody has, with the configured cost, used to spend
 * the same time when an account does not exist (or has no password).
 * @param log2N the cost exponent, `config.PASSWORD_HASH_LOG2_N`
 */
export function dummyPasswordHash(log2N: number): string {
  return `scrypt$${2 ** log2N}$${R}$${P}$${"A".repeat(22)}==$${"A".repeat(43)}=`;
}

/**
 * Checks a password against a stored hash in constant time, with the
 * parameters the hash names.
 * @returns false for a wrong password or a malformed hash (or one naming a cost over 2^20)
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const actual = await scryptAsync(password, parsed.salt, { N: parsed.n, r: parsed.r, p: parsed.p });
  return parsed.hash.length === actual.length && timingSafeEqual(parsed.hash, actual);
}

/**
 * Whether a stored hash is weaker than the configured parameters (a lower
 * N, r or p), so the next successful login should store a new hash, as
 * Django's `check_password` upgrades a hash whose hasher `must_update`.
 * A malformed hash is not upgraded (it never verifies).
 * @param log2N the cost exponent, `config.PASSWORD_HASH_LOG2_N`
 */
export function passwordHashNeedsUpgrade(stored: string, log2N: number): boolean {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  return parsed.n < 2 ** log2N || parsed.r < R || parsed.p < P;
}
