/**
 * The data layer's two retry loops; every retry in the code goes through
 * one of them.
 *
 * - {@link withWriteRetries}: optimistic concurrency. An attempt reads,
 *   decides and writes with conditions on what it read; when a condition
 *   fails (someone changed the data in between) it runs again from the read.
 * - {@link retryUnprocessed}: DynamoDB's batch calls may leave part of a
 *   batch unprocessed under throttling; the rest is sent again with
 *   exponential back-off.
 *
 * A single write that meets a transaction in flight is retried by the
 * document client itself (`client.ts`).
 */

/**
 * How many times an action re-reads and re-decides after its conditional
 * write lost a race. Each retry re-runs the whole check, so a race that made
 * the request invalid ends in the proper Zulip error, not in a retry.
 */
export const MAX_WRITE_ATTEMPTS = 4;

/**
 * Runs `attempt` until it reports that its conditional write went through.
 * `attempt` reads, validates (throwing the client's error when invalid) and
 * writes with conditions on what it read; it returns `undefined` when a
 * condition failed, i.e. someone changed the data in between.
 * @param what names the operation in the error
 * @param maxAttempts @default {@link MAX_WRITE_ATTEMPTS}
 * @param onConflict called with the attempt number (1-based) after each lost race, before the next attempt
 *   (for a back-off or a different error on the last one)
 * @throws Error when the write keeps losing races (not expected in practice)
 */
export async function withWriteRetries<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  options: { maxAttempts?: number; onConflict?: (attempt: number) => Promise<void> | void } = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_WRITE_ATTEMPTS;
  for (let i = 1; i <= maxAttempts; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (i < maxAttempts) await options.onConflict?.(i);
  }
  throw new Error(`${what}: gave up after ${maxAttempts} conflicting writes`);
}

/** Tries of a batch call whose items stay unprocessed, before giving up. */
const UNPROCESSED_ATTEMPTS = 9;

/**
 * Sends `pending` with `send` until nothing is left unprocessed: the first
 * try at once, then after 50, 100, 200 … ms (doubling).
 * @param send sends one batch and returns what DynamoDB left unprocessed
 * @throws Error naming `what` when items stay unprocessed after 9 tries
 */
export async function retryUnprocessed<T>(what: string, pending: T[], send: (batch: T[]) => Promise<T[]>): Promise<void> {
  let left = pending;
  for (let attempt = 0; left.length > 0; attempt++) {
    if (attempt >= UNPROCESSED_ATTEMPTS) throw new Error(`${what} left ${left.length} items unprocessed`);
    if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
    left = await send(left);
  }
}
