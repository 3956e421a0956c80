import type { Deps } from "../../deps.js";

/** Runs the `push_bouncer_update` job (Zulip's `send_server_data_to_push_bouncer`). */
export async function runPushBouncerUpdate(_deps: Deps): Promise<void> {
  throw new Error("push_bouncer_update: runner not built yet");
}
