import { execFile } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Newest modification time (ms) of a file or of any file under a folder. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Whether `web/dist` must be built again: it is missing, or a source of the
 * app (`web/src`, `web/index.html`, `web/vite.config.ts`) changed after the
 * last build wrote `web/dist/index.html`.
 */
export function webBuildIsStale(webDir = join(root, "web")): boolean {
  const built = join(webDir, "dist", "index.html");
  if (!existsSync(built)) return true;
  const sources = ["src", "index.html", "vite.config.ts"].map((p) => join(webDir, p)).filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
}

/**
 * Builds the web app into `web/dist` when {@link webBuildIsStale}: the same
 * build as `npm run build:web`, without npm's own start-up.
 * @throws Error with the build's output when it fails
 */
export async function ensureWebBuild(): Promise<void> {
  if (!webBuildIsStale()) return;
  await promisify(execFile)(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--config", "web/vite.config.ts"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: Error & { stdout?: string; stderr?: string }) => {
    throw new Error(`building the web app (npm run build:web) failed:\n${err.stdout ?? ""}${err.stderr ?? ""}`);
  });
}
