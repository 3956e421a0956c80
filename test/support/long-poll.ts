import type { Deps } from "../../shared/deps.js";

/**
 * Resolves once the in-process server holds a long poll (`GET /events`
 * without `dont_block`) of `userId`'s queue: it has read the logs, found
 * nothing new, and started waiting (`deps.waitForEvents`). Install it
 * before starting the poll. Replaces a fixed sleep, which on a busy machine
 * may end before the poll even reached the server.
 *
 * Waiting is observed by wrapping `deps.waitForEvents` (the deps object is
 * shared with the server); the wrapper removes itself at the first match.
 *
 * @param timeoutMs how long to wait for the server to start holding, in milliseconds
 * @returns true once held; false when no poll of that user was held within `timeoutMs` (never rejects)
 */
export function serverHoldsLongPoll(deps: Deps, userId: number, timeoutMs = 20_000): Promise<boolean> {
  const original = deps.waitForEvents;
  return new Promise<boolean>((resolve) => {
    const restore = () => {
      clearTimeout(timer);
      if (deps.waitForEvents === wrapper) deps.waitForEvents = original;
    };
    const wrapper: Deps["waitForEvents"] = (userIds, ms) => {
      const waiting = original.call(deps, userIds, ms);
      if (userIds.includes(userId)) {
        restore();
        resolve(true);
      }
      return waiting;
    };
    const timer = setTimeout(() => {
      restore();
      resolve(false);
    }, timeoutMs);
    deps.waitForEvents = wrapper;
  });
}
