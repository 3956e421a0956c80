import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readEmojiDatasource } from "../shared/emoji/build-data.js";
import { UNICODE_EMOJI_TABLE } from "../shared/emoji/unicode-data.generated.js";
import { buildWebEmojiCatalog, WEB_CATALOG_PATH, webCatalogModuleSource } from "./build-web-emoji.js";

describe("the web app's emoji catalog", () => {
  it("is current (run `npx tsx scripts/build-web-emoji.ts` when this fails)", () => {
    // Prepare
    const expected = webCatalogModuleSource(buildWebEmojiCatalog(readEmojiDatasource()));

    // Assess
    expect(readFileSync(WEB_CATALOG_PATH, "utf8")).toBe(expected);
  });

  it("holds exactly the server's emoji, with the server's names, grouped by category", () => {
    // Act
    const catalog = buildWebEmojiCatalog(readEmojiDatasource()).split("\n");

    // Assess
    const emoji = catalog.filter((line) => !line.startsWith("#"));
    expect([...emoji].sort()).toEqual(UNICODE_EMOJI_TABLE.split("\n"));
    expect(catalog[0]).toBe("#Smileys & Emotion");
    expect(catalog).toContain("1f389 tada");
    expect(catalog.indexOf("#Activities")).toBeLessThan(catalog.indexOf("1f389 tada"));
  });
});
