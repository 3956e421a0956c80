import { RouteNotFoundError } from "../../shared/errors.js";
import { siteFileResponse, type SiteEndpoint } from "../../shared/http/site-handler.js";

/**
 * The web app's Content Security Policy, sent with its page. Scripts,
 * styles, fonts and API calls come from this origin only; no page may
 * frame it; no plugin, `<base>` or cross-origin form post; no inline
 * style attribute either: KaTeX's math markup positions its boxes with
 * `style` attributes, which the app moves aside before inserting the
 * message HTML and applies through the CSSOM (which a policy does not
 * restrict). One allowance, for the server's message HTML:
 * - `img-src https:`: image previews show the linked image's own URL (no
 *   image proxy is deployed, docs/image-previews.md), and `/user_uploads/…`
 *   and avatars redirect to presigned S3 URLs on another host.
 */
export const WEB_APP_CSP = webAppCsp();

/**
 * {@link WEB_APP_CSP} with one more image origin: the file store's, when its
 * presigned URLs are not `https:` (the local stack's S3 emulator; see
 * `SiteDeps.fileOrigin`), so uploaded images show there as on AWS.
 */
export function webAppCsp(fileOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: https:${fileOrigin ? ` ${fileOrigin}` : ""}`,
    "connect-src 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Headers of the page: revalidated on every load (it names the current hashed files), under {@link webAppCsp}. */
function pageHeaders(fileOrigin?: string): Record<string, string> {
  return {
    "cache-control": "no-cache",
    "content-security-policy": fileOrigin ? webAppCsp(fileOrigin) : WEB_APP_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
  };
}

/** Vite's content-hashed output (`assets/<name>-<hash>.<ext>`): a changed file gets a new name, so it is cached for a year. */
const HASHED_DIR = "assets/";
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Shown at the site root locally when the web app has not been built (on AWS, synthesis refuses a missing build). */
const NOT_BUILT_PAGE = Buffer.from(
  [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head>',
    "<body><h1>The web app is not built</h1>",
    "<p>Run <code>npm run build:web</code> in the project folder, then restart <code>npm start</code>.</p>",
    "<p>The API is served at <code>/api/v1</code> meanwhile.</p></body></html>",
    "",
  ].join("\n"),
);

/**
 * `GET /` and `HEAD /`: the web app's page, `index.html` of the build
 * (Zulip serves its web app at the site root). `Cache-Control: no-cache`
 * with an entity tag (a reload costs a 304 when nothing changed),
 * {@link WEB_APP_CSP}, `nosniff`, `Referrer-Policy:
 * strict-origin-when-cross-origin`. Without a build (a local checkout
 * before `npm run build:web`) a short HTML page (404) says how to build it.
 */
export const getWebAppPage: SiteEndpoint = async (ctx) => {
  const page = await ctx.deps.site.read("index.html");
  if (!page) {
    return {
      statusCode: 404,
      headers: { ...pageHeaders(ctx.deps.fileOrigin), "cache-control": "no-store", "content-type": "text/html; charset=utf-8" },
      body: NOT_BUILT_PAGE,
    };
  }
  return siteFileResponse(ctx, page, pageHeaders(ctx.deps.fileOrigin));
};

/**
 * `GET /static/app/{path+}` (and `HEAD`): a file of the build (`web/dist`,
 * Vite's `base` is `/static/app/`), in the stored form the client accepts
 * best (brotli, gzip or as is). Hashed files under `assets/` are cached for
 * a year (`immutable`), others revalidated (`no-cache`).
 * @throws RouteNotFoundError 404 `Not Found` for an unknown file, a directory, or a path that leaves the build
 *   (`..`, hidden files; see `safeSitePath`)
 */
export const getWebAppFile: SiteEndpoint = async (ctx) => {
  const relative = ctx.pathParams.path ?? "";
  const file = await ctx.deps.site.read(relative);
  if (!file) throw new RouteNotFoundError();
  const headers = {
    "cache-control": file.path.startsWith(HASHED_DIR) ? IMMUTABLE : "no-cache",
    "x-content-type-options": "nosniff",
    // The page itself is reachable as /static/app/index.html too: same policy there.
    ...(file.contentType.startsWith("text/html") ? pageHeaders(ctx.deps.fileOrigin) : {}),
  };
  return siteFileResponse(ctx, file, headers);
};
