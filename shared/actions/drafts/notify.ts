import type { Deps } from "../../deps.js";
import type { DraftRecord } from "../../data/records/draft.js";
import { sendEvent } from "../../events/publish.js";
import { draftToWire } from "../../wire/draft.js";

/**
 * Sends `drafts` `add` (https://zulip.com/api/get-events#drafts-add) with the
 * new drafts to their owner's clients only (Zulip's `do_create_drafts`).
 */
export async function notifyDraftsAdded(deps: Deps, userId: number, drafts: DraftRecord[]): Promise<void> {
  await sendEvent(deps, { type: "drafts", op: "add", drafts: drafts.map(draftToWire) }, [userId]);
}

/**
 * Sends `drafts` `update` (https://zulip.com/api/get-events#drafts-update)
 * with the whole replaced draft to its owner's clients (Zulip's `do_edit_draft`).
 */
export async function notifyDraftUpdated(deps: Deps, draft: DraftRecord): Promise<void> {
  await sendEvent(deps, { type: "drafts", op: "update", draft: draftToWire(draft) }, [draft.user_id]);
}

/**
 * Sends `drafts` `remove` (https://zulip.com/api/get-events#drafts-remove)
 * with the deleted draft's ID to its owner's clients (Zulip's `do_delete_draft`).
 */
export async function notifyDraftRemoved(deps: Deps, userId: number, draftId: number): Promise<void> {
  await sendEvent(deps, { type: "drafts", op: "remove", draft_id: draftId }, [userId]);
}
