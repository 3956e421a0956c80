import { describe, expect, it } from "vitest";
import { highlightHtmlDifferences } from "./html-diff.js";

describe("highlightHtmlDifferences", () => {
  it("marks only the words that changed, inside the new rendering's tags", () => {
    expect(highlightHtmlDifferences("<p>hello big world</p>", "<p>hello small world</p>")).toBe(
      '<p>hello <span class="highlight_text_deleted">big</span><span class="highlight_text_inserted">small</span> world</p>',
    );
  });

  it("marks added text and keeps added tags outside the marks", () => {
    expect(highlightHtmlDifferences("<p>one</p>", "<p>one <strong>two</strong></p>")).toBe(
      '<p>one <strong><span class="highlight_text_inserted">two</span></strong></p>',
    );
  });

  it("drops removed tags but shows their text as deleted", () => {
    expect(highlightHtmlDifferences("<p>keep <em>gone</em></p>", "<p>keep</p>")).toBe(
      '<p>keep <span class="highlight_text_deleted">gone</span></p>',
    );
  });

  it("returns the new rendering unchanged when nothing differs", () => {
    expect(highlightHtmlDifferences("<p>same</p>", "<p>same</p>")).toBe("<p>same</p>");
  });
});

describe("highlightHtmlDifferences, replacements", () => {
  it("reads a run of changed words as one replacement, deleted text first", () => {
    expect(highlightHtmlDifferences("<p>first draft</p>", "<p>now with more</p>")).toBe(
      '<p><span class="highlight_text_deleted">first draft</span><span class="highlight_text_inserted">now with more</span></p>',
    );
  });
});
