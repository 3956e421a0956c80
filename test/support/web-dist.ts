import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** What {@link makeWebDist} writes, by path below the folder. */
export const TEST_WEB_FILES = {
  "index.html": [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><title>Zulip</title>',
    '<script type="module" crossorigin src="/static/app/assets/index-Dk3fA9xQ.js"></script>',
    '<link rel="stylesheet" crossorigin href="/static/app/assets/index-B7cPq2Lm.css">',
    '</head><body><div id="app"></div></body></html>',
    "",
  ].join("\n"),
  // Long enough (and repetitive enough) that gzip and brotli both shrink it.
  "assets/index-Dk3fA9xQ.js": `${Array.from({ length: 200 }, (_, i) => `export const line${i} = "the web app, line ${i}";`).join("\n")}\n`,
  "assets/index-B7cPq2Lm.css": `${Array.from({ length: 100 }, (_, i) => `.row-${i} { padding: ${i}px; }`).join("\n")}\n`,
  "favicon.png": Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
} as const satisfies Record<string, string | Buffer>;

/**
 * A stand-in for `web/dist` (what `npm run build:web` writes) in a new
 * temporary folder: an `index.html` naming a hashed script and stylesheet
 * under `assets/`, and an image outside it. Tests that serve or bundle the
 * web app pass it in (the local stack's `webDist`, the stack's `webDist`),
 * so they run on a clean clone where the web app was never built.
 * @returns the folder's path
 */
export function makeWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "zs-web-dist-"));
  for (const [name, content] of Object.entries(TEST_WEB_FILES)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}
