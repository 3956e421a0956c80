import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../shared/config.js";
import type { SiteDeps } from "../../shared/deps.js";
import { createLogger } from "../../shared/logger.js";
import { siteFilesFromDirectory } from "../../shared/storage/site-files.js";

/**
 * The folder of the web app's files in the `web` Lambda's asset, beside
 * its `index.mjs` (infra/bundling.ts copies `web/dist` there, with the
 * precompressed forms).
 */
export const WEB_ASSET_DIR = "web";

/**
 * The `web` group's dependencies: a logger and the built web app's files,
 * read from {@link WEB_ASSET_DIR} beside the bundle (`/var/task/web`). No
 * table, queue or file store client: the group serves files only.
 * @returns built once per cold start by the generated `functions/lambdas/web.ts`
 */
export function groupDeps(): SiteDeps {
  const config = loadConfig();
  const here = path.dirname(fileURLToPath(import.meta.url));
  return { log: createLogger(config.LOG_LEVEL), site: siteFilesFromDirectory(path.join(here, WEB_ASSET_DIR)) };
}
