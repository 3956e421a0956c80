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
 * @throws Error when the write keeps losing races (not expected in practice)
 */
export async function withWriteRetries<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < MAX_WRITE_ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw new Error(`${what}: gave up after ${MAX_WRITE_ATTEMPTS} conflicting writes`);
}
