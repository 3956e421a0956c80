import { z } from "zod";
import { checkAddPlayground, checkRemovePlayground } from "../../shared/actions/realms/playgrounds.js";
import { requireRealmAdmin } from "../../shared/access/user.js";
import { MissingArgumentError } from "../../shared/errors.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams, pathInt } from "../../shared/http/params.js";

/** Zulip's `RealmPlayground` field lengths (name, Pygments language) and Django's URL field length. */
const SPECS = {
  name: param.string(z.string().max(50)),
  pygments_language: param.string(z.string().max(40)),
  url_template: param.string(z.string().max(200)).optional(),
  // The spec's older form (before feature level 196): the code is appended to the prefix.
  url_prefix: param.string(z.string().max(194)).optional(),
};

/**
 * `POST /realm/playgrounds` (https://zulip.com/api/add-code-playground):
 * `url_template` with `{code}`, or the older `url_prefix` (the template is
 * then the prefix followed by `{code}`). Answers the new playground's `id`.
 */
export const addCodePlayground: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  const { name, pygments_language, url_template, url_prefix } = parseParams(ctx.params, SPECS);
  const template = url_template ?? (url_prefix !== undefined ? `${url_prefix}{code}` : undefined);
  if (template === undefined) throw new MissingArgumentError("url_template");
  const id = await checkAddPlayground(ctx.deps, ctx.realm, ctx.user, { name, pygments_language, url_template: template });
  return { id };
};

/** `DELETE /realm/playgrounds/{playground_id}` (https://zulip.com/api/remove-code-playground). */
export const removeCodePlayground: Endpoint = async (ctx) => {
  requireRealmAdmin(ctx.user);
  await checkRemovePlayground(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "playground_id"));
};
