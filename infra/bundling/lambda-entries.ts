import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { API_PREFIX, GROUPS, groupRoutes, JSON_PREFIX, ROUTES, type Group } from "../../shared/routes.js";
import type { Route } from "../../shared/routing.js";

/**
 * Which Lambda serves which endpoint is a bundling choice, not a folder:
 * endpoints live in `functions/<domain>/` by what they are about (bots under
 * `functions/bots/`), and the route table (`shared/routes.ts`) gives each
 * route its group. Each group's Lambda entry, `functions/lambdas/<group>.ts`,
 * is generated from the two: it imports exactly the endpoint modules of the
 * group's routes, so a bundle holds those and what they import, nothing of
 * the other groups. It also carries the group's routes, written out, among
 * which its handler finds a request's by API Gateway's route key
 * (`byRouteKey`, shared/routing.ts): a group's bundle holds neither the
 * table nor the path matching, which only the `$default` fallback needs.
 * A group whose endpoints need more than `Deps` (the
 * `files` group's file store) has a hand-written
 * `functions/lambdas/<group>.setup.ts` exporting `groupDeps()`, which builds
 * them; the others get `createDeps()`.
 *
 * `npm run gen:lambdas` writes the entries; test/architecture/lambda-entries.test.ts
 * fails when a committed entry differs from what this module generates.
 */

/** The folder of the generated entries, below the repository root. */
export const LAMBDAS_DIR = "functions/lambdas";

/**
 * Groups whose entry builds another handler than `groupHandler`: the `web`
 * group serves the built web app's files with `siteHandler` (no
 * authentication, rate limits or table reads).
 */
const GROUP_HANDLERS: Partial<Record<Group, { name: string; module: string }>> = {
  web: { name: "siteHandler", module: "../../shared/http/site-handler.js" },
};
const DEFAULT_HANDLER = { name: "groupHandler", module: "../../shared/http/group-handler.js" };

/** Folders below `functions/` that hold no endpoints: the entries, and the two Lambdas that are not API groups. */
const NOT_ENDPOINT_FOLDERS = new Set(["lambdas", "worker", "fallback"]);

/**
 * Every routed endpoint name and the module (path from the repository root)
 * that exports it, read from the modules' own exports (esbuild's metafile of
 * an unbundled build: no code runs).
 * @throws Error when a route's endpoint is exported by no module or by more than one
 */
export function endpointModules(root: string): Map<string, string> {
  const files = readdirSync(path.join(root, "functions"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !NOT_ENDPOINT_FOLDERS.has(d.name))
    .flatMap((d) =>
      readdirSync(path.join(root, "functions", d.name))
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
        .map((f) => `functions/${d.name}/${f}`),
    )
    .sort();
  const { metafile } = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: files,
    bundle: false,
    write: false,
    metafile: true,
    format: "esm",
    outdir: "out",
    logLevel: "silent",
  });
  const routed = new Set(ROUTES.map((r) => r.endpoint));
  const modules = new Map<string, string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const name of output.exports.filter((e) => routed.has(e))) {
      const other = modules.get(name);
      if (other) throw new Error(`Endpoint ${name} is exported by both ${other} and ${output.entryPoint}`);
      modules.set(name, output.entryPoint!);
    }
  }
  const missing = [...routed].filter((name) => !modules.has(name));
  if (missing.length) throw new Error(`No module in functions/<domain>/ exports the endpoints ${missing.join(", ")}`);
  return modules;
}

/**
 * The source of `functions/lambdas/<group>.ts`: where its dependencies come
 * from (the group's setup module, or `createDeps`), its endpoints imported from their modules, `endpoints` (the map
 * `groupHandler` dispatches on, keyed by the route table's endpoint names),
 * `routes` (the group's routes of the table, in its order) and `handler`.
 * @param modules from {@link endpointModules}
 */
export function lambdaEntrySource(root: string, group: Group, modules: ReadonlyMap<string, string>): string {
  const names = [...new Set(groupRoutes(group).map((r) => r.endpoint))];
  // The group's routes as the table declares them (the web app's own `/json` routes included); the entry
  // derives the `/json` copies of its API routes as the table does.
  const declared = groupRoutes(group).filter((r) => r.prefix !== JSON_PREFIX || !isJsonCopy(r));
  const byModule = new Map<string, string[]>();
  for (const name of names) {
    const module = modules.get(name)!;
    byModule.set(module, [...(byModule.get(module) ?? []), name]);
  }
  const make = GROUP_HANDLERS[group] ?? DEFAULT_HANDLER;
  const hasSetup = existsSync(path.join(root, LAMBDAS_DIR, `${group}.setup.ts`));
  const depsImport = hasSetup
    ? `import { groupDeps } from "./${group}.setup.js";`
    : `import { createDeps } from "../../shared/deps.js";`;
  const imports = [...byModule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, exported]) => `import { ${exported.sort().join(", ")} } from "../${module.slice("functions/".length).replace(/\.ts$/, ".js")}";`);
  return [
    `// Generated by \`npm run gen:lambdas\` (infra/bundling/lambda-entries.ts) from the route table: do not edit.`,
    depsImport,
    `import { ${make.name} } from "${make.module}";`,
    `import { byRouteKey, withJsonCopies, type Route } from "../../shared/routing.js";`,
    ...imports,
    ``,
    `/** The endpoints of the \`${group}\` group's Lambda: its routes in shared/routes.ts. */`,
    `export const endpoints = {`,
    ...names.map((name) => `  ${name},`),
    `};`,
    ``,
    `/** The \`${group}\` group's routes in shared/routes.ts, their \`/json\` copies included: API Gateway invokes its Lambda for these alone. */`,
    `export const routes: readonly Route[] = withJsonCopies([`,
    ...declared.map((route) => `  ${routeLiteral(route)},`),
    `]);`,
    ``,
    `/**`,
    ` * The \`${group}\` group's Lambda handler: the middy chain of \`${make.name}\` in front of {@link endpoints}, over the`,
    ` * dependencies built once per cold start; it finds a request's route among {@link routes} by its route key.`,
    ` */`,
    `export const handler = ${make.name}(endpoints, ${hasSetup ? "groupDeps()" : "createDeps()"}, byRouteKey(routes));`,
    ``,
  ].join("\n");
}

/** Whether a `/json` route is the derived copy of an API route (same method, path and endpoint; `withJsonCopies`). */
function isJsonCopy(route: Route): boolean {
  return ROUTES.some((r) => r.prefix === API_PREFIX && r.method === route.method && r.path === route.path && r.endpoint === route.endpoint);
}

/** A route as a TypeScript object literal, its fields in the order of {@link Route}. */
function routeLiteral(route: Route): string {
  const { method, path, prefix, group, endpoint, auth, apiOnly } = route;
  const fields = { method, path, prefix, group, endpoint, auth, ...(apiOnly ? { apiOnly } : {}) };
  return `{ ${Object.entries(fields).map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(", ")} }`;
}

/** Every group's entry source, by group. */
export function lambdaEntrySources(root: string): Record<Group, string> {
  const modules = endpointModules(root);
  return Object.fromEntries(GROUPS.map((g) => [g, lambdaEntrySource(root, g, modules)])) as Record<Group, string>;
}
