import { accessRealmExports, checkDeleteRealmExport, checkExportRealm } from "../../shared/actions/realms/realm-export.js";
import type { Endpoint } from "../../shared/http/context.js";
import { pathInt } from "../../shared/http/params.js";

/** `GET /export/realm` (https://zulip.com/api/get-realm-exports): the organization's public data exports. */
export const getRealmExports: Endpoint = async (ctx) => ({ exports: await accessRealmExports(ctx.deps, ctx.realm, ctx.user) });

/** `POST /export/realm` (https://zulip.com/api/export-realm): starts a public data export; answers its `id`. */
export const exportRealm: Endpoint = async (ctx) => ({ id: await checkExportRealm(ctx.deps, ctx.realm, ctx.user) });

/** `DELETE /export/realm/{export_id}` (Zulip's `delete_realm_export`): deletes a finished export's tarball. */
export const deleteRealmExport: Endpoint = async (ctx) => {
  await checkDeleteRealmExport(ctx.deps, ctx.realm, ctx.user, pathInt(ctx.pathParams, "export_id"));
};
