import type { Deps } from "../../deps.js";
import { allocateIds } from "../../data/counters.js";
import { putNewDrafts, removeDraft, replaceDraft } from "../../data/drafts.js";
import type { DraftRecord } from "../../data/records/draft.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { JsonableError } from "../../errors.js";
import { checkDrafts, checkDraftsEnabled, MAX_DRAFTS_PER_REQUEST, type DraftInput } from "./check-draft.js";
import { notifyDraftRemoved, notifyDraftsAdded, notifyDraftUpdated } from "./notify.js";

/**
 * Creating, replacing and deleting a user's drafts (Zulip's
 * `do_create_drafts`, `do_edit_draft`, `do_delete_draft` in
 * `zerver/actions/drafts.py`). Each change is announced by a `drafts` event
 * to the user's own clients only.
 */

/** Zulip's `ResourceNotFoundError` for a draft ID the caller does not own: 404, code `BAD_REQUEST`. */
function draftDoesNotExist(): JsonableError {
  return new JsonableError("Draft does not exist", { httpStatus: 404 });
}

function nowSeconds(deps: Deps): number {
  return Math.floor(deps.clock.now() / 1000);
}

/**
 * `POST /drafts` (https://zulip.com/api/create-drafts): checks every draft,
 * then allocates their IDs (one counter update), stores them (BatchWriteItem)
 * and sends one `drafts` `add` event.
 * @returns the new IDs, in the order the drafts were given
 * @throws JsonableError `User has disabled synchronizing drafts.`,
 *   `At most 100 drafts can be created at once`, and the errors of `checkDrafts`
 */
export async function doCreateDrafts(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  inputs: DraftInput[],
): Promise<number[]> {
  checkDraftsEnabled(realm, user);
  if (inputs.length > MAX_DRAFTS_PER_REQUEST) {
    throw new JsonableError(`At most ${MAX_DRAFTS_PER_REQUEST} drafts can be created at once`);
  }
  const checked = await checkDrafts(deps, realm, user, inputs, nowSeconds(deps));
  if (checked.length === 0) return [];
  const first = await allocateIds(deps, "draft", checked.length);
  const drafts: DraftRecord[] = checked.map((d, i) => ({ user_id: user.user_id, id: first + i, ...d }));
  await putNewDrafts(deps, drafts);
  await notifyDraftsAdded(deps, user.user_id, drafts);
  return drafts.map((d) => d.id);
}

/**
 * `PATCH /drafts/{draft_id}` (https://zulip.com/api/edit-draft): replaces
 * one of the caller's drafts as a whole (a missing `timestamp` becomes the
 * server's clock) and sends `drafts` `update`. One conditional write.
 * @throws JsonableError 404 `Draft does not exist` when the caller has no draft with this ID
 *   (another user's draft included); `User has disabled synchronizing drafts.`;
 *   the errors of `checkDrafts`
 */
export async function doEditDraft(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  draftId: number,
  input: DraftInput,
): Promise<void> {
  checkDraftsEnabled(realm, user);
  const [checked] = await checkDrafts(deps, realm, user, [input], nowSeconds(deps));
  const draft: DraftRecord = { user_id: user.user_id, id: draftId, ...checked! };
  if (!(await replaceDraft(deps, draft))) throw draftDoesNotExist();
  await notifyDraftUpdated(deps, draft);
}

/**
 * `DELETE /drafts/{draft_id}` (https://zulip.com/api/delete-draft): deletes
 * one of the caller's drafts (one conditional delete) and sends `drafts` `remove`.
 * @throws JsonableError 404 `Draft does not exist`; `User has disabled synchronizing drafts.`
 */
export async function doDeleteDraft(deps: Deps, realm: RealmRecord, user: UserRecord, draftId: number): Promise<void> {
  checkDraftsEnabled(realm, user);
  if (!(await removeDraft(deps, user.user_id, draftId))) throw draftDoesNotExist();
  await notifyDraftRemoved(deps, user.user_id, draftId);
}
