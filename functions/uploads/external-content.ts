import { fetchExternalImage } from "../../shared/actions/uploads/external-content.js";
import type { FilesDeps } from "../../shared/deps.js";
import type { PublicEndpoint } from "../../shared/http/context.js";
import { BinaryResult } from "../../shared/http/response.js";

/** How long browsers and caches may keep a proxied image (the URL names one upstream URL for good). */
const CACHE_SECONDS = 86_400;

/**
 * `GET /external_content/{digest}/{received_url}` at the site root (Zulip's
 * `handle_camo_url`; the `src` of external image previews): the image, fetched
 * by this server (see `fetchExternalImage` for what it refuses), cacheable,
 * with a policy that lets it run nothing. No credentials: the digest is the
 * authorization.
 */
export const serveExternalContent: PublicEndpoint<FilesDeps> = async (ctx) => {
  const image = await fetchExternalImage(ctx.deps.config.CAMO_KEY, ctx.pathParams.digest ?? "", ctx.pathParams.received_url ?? "");
  return new BinaryResult(image.contentType, image.body, {
    "cache-control": `public, max-age=${CACHE_SECONDS}`,
    "content-security-policy": "default-src 'none'; sandbox",
  });
};
