import type { Deps } from "../../deps.js";
import { sendEvent, type ZulipEvent } from "../../events/publish.js";

/**
 * Sends events whose payload differs per user (for example `subscription`
 * `add`, whose objects carry each user's own colors). Users are served in
 * parallel, at most `parallelism` at a time, so a bulk change for thousands
 * of users neither loops sequentially nor opens thousands of connections
 * at once; one user's events go out in the order given.
 */
export async function sendPerUserEvents(
  deps: Deps,
  perUser: { userId: number; events: ZulipEvent[] }[],
  parallelism = 16,
): Promise<void> {
  for (let i = 0; i < perUser.length; i += parallelism) {
    await Promise.all(
      perUser.slice(i, i + parallelism).map(async ({ userId, events }) => {
        for (const event of events) await sendEvent(deps, event, [userId]);
      }),
    );
  }
}

/** Ascending numeric sort of a set or list of IDs (event payloads list IDs sorted, as Zulip does). */
export function sortedIds(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * String ordering for stream names: by UTF-16 code unit, which is Python's
 * code-point order (Zulip's `sorted(..., key=name)`) for every name without
 * characters beyond the Basic Multilingual Plane.
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
