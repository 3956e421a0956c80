import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/**
 * The web app's first screen stays within its budget: the JavaScript and CSS
 * that `index.html` loads before anything is clicked (its entry script, the
 * chunks that script imports statically, its stylesheets), gzip-compressed,
 * at most 200 KB. Settings, administration, pickers and viewers are chunks a
 * dynamic `import()` reaches, so they are not counted here. Runs in the
 * browser project, whose global setup builds `web/dist` from the sources.
 */
const dist = fileURLToPath(new URL("../../web/dist/", import.meta.url));
const BUDGET_BYTES = 200 * 1000;

/** `/static/app/assets/x.js` → the file under web/dist. */
function distFile(url: string): string {
  return path.join(dist, url.replace(/^\/static\/app\//, ""));
}

/** The chunks a script imports statically (`import{…}from"./x.js"`, `import"./x.js"`), not those behind `import("…")`. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?<![\w$.])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.\/[^"']+)["']/g)) out.push(m[1]!);
  return out;
}

/** Every file of the first screen, by path, following static imports from the entry scripts. */
function firstScreenFiles(): string[] {
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) =>
    distFile(m[1]!),
  );
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => distFile(m[1]!));
  const seen = new Set<string>();
  const queue = [...scripts];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const rel of staticImports(readFileSync(file, "utf8"))) queue.push(path.join(path.dirname(file), rel));
  }
  return [...seen, ...styles];
}

describe("the web app's first screen", () => {
  it("ships at most 200 KB of compressed JavaScript and CSS, with settings and administration left to later chunks", () => {
    const files = firstScreenFiles();
    const sizes = files.map((f) => ({ file: path.basename(f), gzip: gzipSync(readFileSync(f), { level: 9 }).length }));
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    console.log(`first screen: ${sizes.map((s) => `${s.file} ${(s.gzip / 1000).toFixed(1)} KB`).join(", ")}; total ${(total / 1000).toFixed(1)} KB gzip`);
    expect(files.some((f) => /\.js$/.test(f))).toBe(true);
    expect(files.some((f) => /\.css$/.test(f))).toBe(true);
    expect(files.filter((f) => /SettingsOverlay|sections-/.test(path.basename(f)))).toEqual([]);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
