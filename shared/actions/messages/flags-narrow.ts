import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import type { NarrowTerm } from "../../narrow/terms.js";
import { fetchMessages } from "../../queries/messages/get-messages.js";
import { checkEditableFlag, checkFlagOperation, doUpdateMessageFlags } from "./flags.js";

/** Zulip's `MAX_MESSAGES_PER_UPDATE`: the range is clamped to this many messages. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

/** A `POST /messages/flags/narrow` request after parameter decoding. */
export interface FlagsForNarrowRequest {
  anchor: string | number;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

/** The response of `POST /messages/flags/narrow` (without `result` and `msg`). */
export type FlagsForNarrowResult = {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
};

/**
 * `POST /messages/flags/narrow`
 * (https://zulip.com/api/update-message-flags-for-narrow; Zulip's
 * `update_message_flags_for_narrow` view in `zerver/views/message_flags.py`):
 * finds the range exactly as
 * `GET /messages` does (same anchor rules, narrow and visibility), then
 * updates the flag on it as `POST /messages/flags` does. `num_before` and
 * `num_after` are reduced so the range holds at most
 * {@link MAX_MESSAGES_PER_UPDATE} messages, as Zulip does.
 *
 * @returns `processed_count`, `updated_count`, `first_processed_id` and
 *   `last_processed_id` (null for an empty range), `found_oldest`, `found_newest`
 * @throws the flag errors of {@link doUpdateMessageFlags}, the anchor and narrow errors of `GET /messages` ({@link fetchMessages})
 */
export async function doUpdateMessageFlagsForNarrow(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  req: FlagsForNarrowRequest,
): Promise<FlagsForNarrowResult> {
  const numBefore = Math.min(req.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - req.numAfter, 0));
  const numAfter = Math.min(req.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  // Validate flag/op before reading anything.
  checkEditableFlag(req.flag);
  checkFlagOperation(req.op);
  const found = await fetchMessages(deps, realm, user, {
    anchor: req.anchor,
    useFirstUnreadAnchor: false,
    numBefore,
    numAfter,
    includeAnchor: req.includeAnchor,
    narrow: req.narrow,
    applyMarkdown: false,
    clientGravatar: true,
  });
  const ids = found.messages.map((m) => Number(m.id));
  const changed = ids.length > 0 ? await doUpdateMessageFlags(deps, realm, user, req.op, req.flag, ids) : [];
  return {
    processed_count: ids.length,
    updated_count: changed.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids[ids.length - 1] ?? null,
    found_oldest: found.found_oldest,
    found_newest: found.found_newest,
  };
}

