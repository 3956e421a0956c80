import { doCreateDrafts } from "../../shared/actions/drafts/drafts.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";
import { draftList } from "./draft-params.js";

/**
 * `POST /drafts` (https://zulip.com/api/create-drafts): creates the JSON list
 * `drafts` (empty when absent) and answers their new `ids`, in order.
 */
export const createDrafts: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { drafts: param.json(draftList).default([]) });
  const ids = await doCreateDrafts(ctx.deps, ctx.realm, ctx.user, p.drafts);
  return { ids };
};
