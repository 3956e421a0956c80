import { z } from "zod";
import {
  checkAddLinkifier,
  checkRemoveLinkifier,
  checkReorderLinkifiers,
  checkUpdateLinkifier,
  linkifierToWire,
} from "../../shared/actions/realms/linkifiers.js";
import { requireRealmAdmin } from "../../shared/access/user.js";
import { MAX_LINKIFIER_PATTERN_LENGTH, MAX_LINKIFIER_URL_TEMPLATE_LENGTH, MAX_LINKIFIERS_PER_REALM } from "../../shared/domain/linkifier-limits.js";
import { realmLinkifiers } from "../../shared/data/linkifiers.js";
import type { Endpoint } from "../../shared/http/context.js";
import { boundedList, param, parseParams, pathInt } from "../../shared/http/params.js";

/** Pattern and URL template, bounded (Zulip's are unbounded text; every message scans every pattern). */
const LINKIFIER = {
  pattern: param.string(z.string().max(MAX_LINKIFIER_PATTERN_LENGTH)),
  url_template: param.string(z.string().max(MAX_LINKIFIER_URL_TEMPLATE_LENGTH)),
};

/** `GET /realm/linkifiers` (https://zulip.com/api/get-linkifiers): every user may list them, in the organization's order. */
export const getLinkifiers: Endpoint = async (ctx) => {
  const { linkifiers } = await realmLinkifiers(ctx.deps, ctx.realm.id);
  return { linkifiers: linkifiers.map(linkifierToWire) };
};

/** `POST /realm/filters` (https://zulip.com/api/add-linkifier): answers the new linkifier's `id`. */
export const addLinkifier: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const input = parseParams(ctx.params, LINKIFIER);
  return { id: await checkAddLinkifier(ctx.deps, ctx.realm, ctx.user, input) };
};

/** `PATCH /realm/filters/{filter_id}` (https://zulip.com/api/update-linkifier). */
export const updateLinkifier: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const input = parseParams(ctx.params, LINKIFIER);
  await checkUpdateLinkifier(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "filter_id"), input);
};

/** `DELETE /realm/filters/{filter_id}` (https://zulip.com/api/remove-linkifier). */
export const removeLinkifier: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  await checkRemoveLinkifier(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "filter_id"));
};

/** `PATCH /realm/linkifiers` (https://zulip.com/api/reorder-linkifiers): `ordered_linkifier_ids`, a JSON list of every ID. */
export const reorderLinkifiers: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { ordered_linkifier_ids } = parseParams(ctx.params, {
    // A list longer than the organization may hold names some linkifier twice or one it does not have.
    ordered_linkifier_ids: param.json(boundedList("ordered_linkifier_ids", z.int(), MAX_LINKIFIERS_PER_REALM * 2)),
  });
  await checkReorderLinkifiers(ctx.deps, ctx.realm, ctx.user, ordered_linkifier_ids);
};
