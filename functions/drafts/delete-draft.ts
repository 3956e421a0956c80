import { doDeleteDraft } from "../../shared/actions/drafts/drafts.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `DELETE /drafts/{draft_id}` (https://zulip.com/api/delete-draft): deletes one of the caller's drafts. */
export const deleteDraft: Endpoint = async (ctx) => {
  await doDeleteDraft(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "draft_id"));
  return {};
};
