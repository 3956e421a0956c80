import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GROUP_MODULES } from "../../functions/handlers.js";
import { PROJECT_ROOT } from "../../infra/bundling.js";
import { LAMBDAS_DIR, endpointModules, lambdaEntrySources } from "../../infra/bundling/lambda-entries.js";
import { GROUPS, JSON_PREFIX, ROUTES } from "../../shared/routes.js";

describe("Lambda entries (functions/lambdas/)", () => {
  it.each(GROUPS)("%s: the committed entry is what `npm run gen:lambdas` generates from the route table", (group) => {
    const committed = readFileSync(path.join(PROJECT_ROOT, LAMBDAS_DIR, `${group}.ts`), "utf8");
    expect(committed, "run `npm run gen:lambdas`").toBe(lambdaEntrySources(PROJECT_ROOT)[group]);
  });

  it("each group's handler serves exactly the endpoints the route table gives it", () => {
    for (const group of GROUPS) {
      const routed = [...new Set(ROUTES.filter((r) => r.group === group).map((r) => r.endpoint))].sort();
      expect(Object.keys(GROUP_MODULES[group].endpoints).sort(), group).toEqual(routed);
    }
  });

  it.each(GROUPS)("%s: the entry's routes are its group's routes of the table, `/json` copies included, in the table's order", (group) => {
    const { routes } = GROUP_MODULES[group];
    expect(routes).toEqual(ROUTES.filter((r) => r.group === group));
    // `webhooks` has the copies of its scheduled-message routes (docs/architecture.md), none of its integrations'.
    // `unauthenticated` has only the signed-out account pages' endpoints below /json (auth `none`).
    expect(routes.some((r) => r.prefix === JSON_PREFIX && r.auth !== "none")).toBe(group !== "unauthenticated" && group !== "web");
    if (group === "webhooks") {
      expect(routes.filter((r) => r.prefix === JSON_PREFIX).every((r) => r.path.startsWith("/scheduled_messages"))).toBe(true);
    }
  });

  it("bot endpoints live in functions/bots/, whichever Lambda serves them", () => {
    const modules = endpointModules(PROJECT_ROOT);
    expect(modules.get("createBot")).toBe("functions/bots/create-bot.ts");
    expect(modules.get("deactivateBot")).toBe("functions/bots/deactivate-bot.ts");
    expect(ROUTES.find((r) => r.endpoint === "createBot")!.group).not.toBe(ROUTES.find((r) => r.endpoint === "deactivateBot")!.group);
  });

  it("every endpoint folder is a domain docs/architecture.md lists, and no folder is named for a group that is not one", () => {
    const folders = new Set([...endpointModules(PROJECT_ROOT).values()].map((m) => m.split("/")[1]!));
    const table = readFileSync(path.join(PROJECT_ROOT, "docs/architecture.md"), "utf8");
    for (const folder of folders) expect(table, folder).toContain(`\`${folder}/\``);
    // `files`, `realm` and `unauthenticated` say which Lambda, not what an endpoint is about.
    for (const group of ["files", "realm", "unauthenticated"]) expect(folders.has(group), group).toBe(false);
  });

  it("refuses an endpoint two modules export", () => {
    // Prepare: a copy of the route table's world with a second `getBots`.
    const root = mkdtempSync(path.join(tmpdir(), "zs-entries-"));
    try {
      for (const [folder, file, text] of [
        ["bots", "get-bots.ts", "export const getBots = 1;"],
        ["users", "bots-again.ts", "export const getBots = 2;"],
      ]) {
        mkdirSync(path.join(root, "functions", folder!), { recursive: true });
        writeFileSync(path.join(root, "functions", folder!, file!), text!);
      }
      // Act and assess
      expect(() => endpointModules(root)).toThrow(/Endpoint getBots is exported by both functions\/bots\/get-bots\.ts and functions\/users\/bots-again\.ts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
