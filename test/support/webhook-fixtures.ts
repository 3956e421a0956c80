/**
 * The incoming-webhook fixtures: real requests as third-party services send
 * them, kept beside the repository in `../shared/webhook-fixtures/<name>/
 * requests.jsonl` (one JSON object per line: method, path, query pairs,
 * headers, content_type, auth, body). Tests replay them; nothing of them
 * is copied into the repository.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "vitest";
import type { WebhookRequest } from "../../shared/integrations/types.js";
import { isCi, REPO_ROOT } from "./openapi.js";

/** Where the fixtures live: `shared/` is cloned beside the repository. */
export const FIXTURES_DIR = resolve(REPO_ROOT, "../shared/webhook-fixtures");

/** One recorded request. */
export interface WebhookFixture {
  /** 0-based line number in the integration's `requests.jsonl`. */
  index: number;
  method: string;
  path: string;
  /** Query parameters as sent (without `api_key`), in order. */
  query: [string, string][];
  headers: Record<string, string>;
  content_type: string;
  body: string;
}

/** The recorded requests of one integration (empty when the fixtures are absent). */
export function webhookFixtures(name: string): WebhookFixture[] {
  const file = resolve(FIXTURES_DIR, name, "requests.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => ({ index, ...(JSON.parse(line) as Omit<WebhookFixture, "index">) }));
}

/** A fixture as the integration function sees it (header names lower-cased, last query value wins). */
export function fixtureRequest(fixture: WebhookFixture): WebhookRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(fixture.headers ?? {})) headers[k.toLowerCase()] = v;
  const query: Record<string, string> = {};
  for (const [k, v] of fixture.query ?? []) query[k] = v;
  const contentType = (fixture.content_type ?? headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return { headers, query, body: fixture.body ?? "", contentType };
}

/**
 * `describe` over one integration's fixtures: runs `fn` when they are
 * present; without them fails under CI (a broken checkout) and is skipped,
 * under a title saying why, elsewhere.
 */
export function describeFixtures(name: string, fn: (fixtures: WebhookFixture[]) => void): void {
  const fixtures = webhookFixtures(name);
  if (fixtures.length > 0) {
    describe(`${name} fixtures`, () => fn(fixtures));
  } else if (isCi(process.env)) {
    describe(`${name} fixtures`, () => {
      it("has the fixture file", () => {
        throw new Error(`${FIXTURES_DIR}/${name}/requests.jsonl not found and CI is set`);
      });
    });
  } else {
    describe.skip(`${name} fixtures (${FIXTURES_DIR} not found)`, () => {
      it("replays the fixtures", () => {});
    });
  }
}
