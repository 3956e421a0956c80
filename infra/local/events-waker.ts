/**
 * In-process wake-up for long-polling waiters. On AWS each long poll
 * re-reads the table in short waits; locally all handlers share one process,
 * so a write can wake the waiters at once. Waiters still re-read the table:
 * a wake-up is a hint, never the event itself.
 */
export function createEventsWaker(): {
  waitForEvents(userIds: number[], timeoutMs: number): Promise<void>;
  eventsWritten(userIds: number[]): void;
} {
  const waiters = new Map<number, Set<() => void>>();
  return {
    waitForEvents(userIds, timeoutMs) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          for (const id of userIds) waiters.get(id)?.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        for (const id of userIds) {
          let set = waiters.get(id);
          if (!set) waiters.set(id, (set = new Set()));
          set.add(done);
        }
      });
    },
    eventsWritten(userIds) {
      for (const id of userIds) for (const wake of [...(waiters.get(id) ?? [])]) wake();
    },
  };
}
