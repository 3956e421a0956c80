import type { Deps } from "../../deps.js";
import { listUserDrafts } from "../../data/drafts.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { draftToWire, type WireDraft } from "../../wire/draft.js";

/** Most drafts in `POST /register`'s `drafts` (Zulip's `MAX_DRAFTS_IN_REGISTER_RESPONSE`). */
export const MAX_DRAFTS_IN_REGISTER = 1000;

/**
 * A user's drafts, most recently edited first (ties: the newer draft first),
 * as https://zulip.com/api/get-drafts lists them. One strongly consistent
 * Query per 1 MB page of the user's drafts.
 * @param limit most drafts read (in draft-ID order, before sorting) @default all
 */
export async function fetchUserDrafts(deps: Deps, userId: number, limit?: number): Promise<WireDraft[]> {
  const drafts = await listUserDrafts(deps, userId, limit);
  return drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id).map(draftToWire);
}

/**
 * The `drafts` key of `POST /register` (https://zulip.com/api/register-queue;
 * Zulip's `fetch_initial_state_data`): the user's drafts, at most
 * {@link MAX_DRAFTS_IN_REGISTER}; empty, without a read, while the user's
 * `enable_drafts_synchronization` is off.
 */
export async function draftsInitialState(
  deps: Deps,
  realm: RealmRecord,
  me: UserRecord,
): Promise<{ drafts: WireDraft[] }> {
  const settings = effectiveUserSettings(me.settings ?? {});
  if (settings.enable_drafts_synchronization !== true) return { drafts: [] };
  return { drafts: await fetchUserDrafts(deps, me.user_id, MAX_DRAFTS_IN_REGISTER) };
}
