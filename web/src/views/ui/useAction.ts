import { useCallback, useRef, useState } from "preact/hooks";
import { ApiError } from "../../api/client.js";

/** The state of one action a person starts from a button or form. */
export interface ActionState<A extends unknown[]> {
  /** Runs the action; resolves true when it succeeded. A second run while one is pending is ignored (false). */
  run(...args: A): Promise<boolean>;
  pending: boolean;
  /** The server's `msg` of the last failure (or the network's), shown where the person acted; null after a success. */
  error: string | null;
  clearError(): void;
}

/** The text to show for a failure: the server's message for an API error, else the error's own. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.code === "NETWORK" ? "Unable to reach the server. Check your connection and try again." : err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Wraps an async action (usually one API call) for a view: tracks whether it
 * is pending (to disable the control) and keeps the error message to show
 * beside it, so no action fails silently.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>): ActionState<A> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback(async (...args: A) => {
    if (busy.current) return false;
    busy.current = true;
    setPending(true);
    setError(null);
    try {
      await latest.current(...args);
      return true;
    } catch (err) {
      setError(errorText(err));
      return false;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, []);
  return { run, pending, error, clearError: () => setError(null) };
}
