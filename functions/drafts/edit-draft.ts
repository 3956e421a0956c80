import { doEditDraft } from "../../shared/actions/drafts/drafts.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";
import { draftObject } from "./draft-params.js";

/** `PATCH /drafts/{draft_id}` (https://zulip.com/api/edit-draft): replaces one of the caller's drafts with `draft`. */
export const editDraft: Endpoint = async (ctx) => {
  const draftId = pathInt(ctx.pathParams, "draft_id");
  const p = parseParams(ctx.params, { draft: param.json(draftObject) });
  await doEditDraft(ctx.deps, ctx.realm, ctx.user, draftId, p.draft);
  return {};
};
