import { authenticateApiRequest } from "../../auth/authenticate.js";
import { realmBySubdomain } from "../../data/realms.js";
import { header } from "../raw-params.js";
import type { ApiMiddleware } from "./types.js";

/**
 * Authenticates the caller according to the route's `auth` mode (middy
 * `before`, after {@link apiContext}). `api` routes get `user` and `realm`
 * or fail with a 401; `none` routes get the realm named by the host, if any.
 */
export function authenticate(): ApiMiddleware {
  return {
    before: async (request) => {
      const ctx = request.context.api!;
      if (ctx.route.auth === "api") {
        const { user, realm } = await authenticateApiRequest(ctx.deps, header(request.event, "authorization"), ctx.subdomain);
        ctx.user = user;
        ctx.realm = realm;
        return;
      }
      ctx.realm = (await realmBySubdomain(ctx.deps, ctx.subdomain)) ?? null;
    },
  };
}
