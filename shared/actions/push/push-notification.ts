import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";

/** Runs a `push_notification` job (Zulip's `handle_push_notification`). */
export async function runPushNotification(_deps: Deps, _p: JobPayload<"push_notification">): Promise<void> {
  throw new Error("push_notification: runner not built yet");
}
