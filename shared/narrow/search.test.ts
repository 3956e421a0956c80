import { describe, expect, it } from "vitest";
import { djangoEscape } from "../html.js";
import { drivingTerm, highlightHtml, matchesSearch, messageTerms, searchTerms, tokenize } from "./search.js";

describe("tokenize", () => {
  it("lower-cases runs of letters and digits", () => {
    expect(tokenize("Hello, World! Café 42nd")).toEqual(["hello", "world", "café", "42nd"]);
  });
});

describe("messageTerms / matchesSearch", () => {
  it("indexes topic and content words once", () => {
    expect(messageTerms("Lunch plans", "lunch at noon")).toEqual(["lunch", "plans", "at", "noon"]);
  });

  it("needs every term, in topic or content, case-insensitively", () => {
    expect(matchesSearch(searchTerms("LUNCH noon"), "Lunch plans", "at noon")).toBe(true);
    expect(matchesSearch(searchTerms("lunch dinner"), "Lunch plans", "at noon")).toBe(false);
    expect(matchesSearch(searchTerms("lun"), "Lunch plans", "at noon")).toBe(false);
  });

  it("matches nothing for an operand without words", () => {
    expect(matchesSearch(searchTerms("!!!"), "t", "!!!")).toBe(false);
  });
});

describe("drivingTerm", () => {
  it("starts from the longest term", () => {
    expect(drivingTerm(["a", "sunglasses", "cool"])).toBe("sunglasses");
    expect(drivingTerm([])).toBeUndefined();
  });
});

describe("highlightHtml", () => {
  it("wraps whole words in text, keeping their case", () => {
    expect(highlightHtml("<p>Cool sunglasses, cool!</p>", ["cool"])).toBe(
      '<p><span class="highlight">Cool</span> sunglasses, <span class="highlight">cool</span>!</p>',
    );
  });

  it("never touches tags, attributes or character references", () => {
    const html = '<p><a href="https://cool.example/cool">cool</a> &amp; amp</p>';
    expect(highlightHtml(html, ["cool", "amp"])).toBe(
      '<p><a href="https://cool.example/cool"><span class="highlight">cool</span></a> &amp; <span class="highlight">amp</span></p>',
    );
  });

  it("highlights an escaped topic", () => {
    expect(highlightHtml(djangoEscape("<b> & lunch"), ["lunch"])).toBe('&lt;b&gt; &amp; <span class="highlight">lunch</span>');
  });
});
