import type { Deps } from "../../deps.js";
import { runMoveMessagesJob } from "./edit-message.js";

/**
 * Runs a `move_messages` job: rewrites the rest of a large topic move
 * (`shared/actions/messages/edit-message.ts`, over `INLINE_MOVE_LIMIT`
 * messages) with the same end state as the inline part. Redelivery is
 * harmless: messages already moved are skipped.
 */
export async function runMoveMessages(deps: Deps, payload: Record<string, unknown>): Promise<void> {
  await runMoveMessagesJob(deps, payload);
}
