import { checkDraftsEnabled } from "../../shared/actions/drafts/check-draft.js";
import type { Endpoint } from "../../shared/http/context.js";
import { fetchUserDrafts } from "../../shared/queries/drafts/user-drafts.js";

/**
 * `GET /drafts` (https://zulip.com/api/get-drafts): the caller's drafts,
 * most recently edited first, with their `count`.
 * @throws JsonableError `User has disabled synchronizing drafts.`
 */
export const getDrafts: Endpoint = async (ctx) => {
  checkDraftsEnabled(ctx.realm, ctx.user);
  const drafts = await fetchUserDrafts(ctx.deps, ctx.user.user_id);
  return { count: drafts.length, drafts };
};
