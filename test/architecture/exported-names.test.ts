import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Production TypeScript files of the working tree, new ones included (tests and declaration files aside). */
function productionFiles(): string[] {
  const args = ["ls-files", "--cached", "--others", "--exclude-standard", "shared/*.ts", "functions/*.ts", "infra/*.ts", "scripts/*.ts"];
  return execFileSync("git", args, { encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "" && !f.endsWith(".test.ts") && !f.endsWith(".d.ts") && existsSync(f));
}

/** Names of the functions and constants a module exports (its value exports). */
function exportedValueNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!(ts.getCombinedModifierFlags(statement as unknown as ts.Declaration) & ts.ModifierFlags.Export)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name) names.push(statement.name.text);
    if (ts.isClassDeclaration(statement) && statement.name) names.push(statement.name.text);
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    }
  }
  return names;
}

describe("exported names", () => {
  // Each Lambda group's entry point exports `handler` (the name Lambda calls) and `endpoints` (its route map);
  // a group's setup module (`functions/lambdas/<group>.setup.ts`) exports `groupDeps`, which the entry calls.
  const SHARED_BY_CONVENTION = new Set(["handler", "endpoints", "groupDeps"]);

  it("no two modules export a function or constant of the same name", () => {
    const files = productionFiles();
    expect(files.length).toBeGreaterThan(100);
    const byName = new Map<string, string[]>();
    for (const file of files) {
      for (const name of exportedValueNames(file)) byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const duplicates = [...byName]
      .filter(([name, where]) => where.length > 1 && !SHARED_BY_CONVENTION.has(name))
      .map(([name, where]) => `${name}: ${where.join(", ")}`);
    expect(duplicates).toEqual([]);
  });
});
