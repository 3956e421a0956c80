import { describe, expect, it } from "vitest";
import { checkLinkifier, checkLinkifierPattern, urlTemplateVariables } from "./linkifiers.js";

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return "no error";
};

describe("checkLinkifierPattern", () => {
  it("answers the named groups of a pattern RE2 accepts", () => {
    expect(checkLinkifierPattern("(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)")).toEqual(["org", "repo", "id"]);
    expect(checkLinkifierPattern("community guidelines")).toEqual([]);
  });

  it("refuses what RE2 refuses, in RE2's words (Zulip's test_create)", () => {
    expect(message(() => checkLinkifierPattern("(foo"))).toBe("Bad regular expression: missing ): (foo");
    expect(message(() => checkLinkifierPattern("ZUL-(?P<id>\\d????)"))).toBe("Bad regular expression: bad repetition operator: ????");
    expect(message(() => checkLinkifierPattern(""))).toBe("This field cannot be blank.");
  });

  it("refuses back-references and look-around, which need a backtracking engine", () => {
    expect(message(() => checkLinkifierPattern("(a+)\\1"))).toBe("Bad regular expression: invalid escape sequence: \\1");
    expect(message(() => checkLinkifierPattern("a(?=b)"))).toBe("Bad regular expression: invalid perl operator: (?=");
  });

  it("refuses a pattern whose program is too large to match every message quickly", () => {
    expect(message(() => checkLinkifierPattern("(\\w{1,100}){1,10}"))).toBe("Bad regular expression: pattern too large - compile failed");
    expect(message(() => checkLinkifierPattern("a{1001}"))).toBe("Bad regular expression: bad repetition operator: {1001}");
  });
});

describe("urlTemplateVariables", () => {
  it("lists the variables of valid templates (Zulip's test_valid_urls)", () => {
    expect(urlTemplateVariables("https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}")).toEqual([
      "zone",
      "domain",
      "location",
      "id",
      "name",
      "chapter",
      "fragment",
    ]);
    expect(urlTemplateVariables("https://example.com/{?foo*}")).toEqual(["foo"]);
    expect(urlTemplateVariables("https://example.com/%%(foo)s")).toEqual([]);
    expect(urlTemplateVariables("$not_a_url$")).toEqual([]);
  });

  it("refuses invalid expressions", () => {
    for (const bad of ["https://example.com/{foo", "https://example.com/{{}", "https://example.com/{//foo}", "https://example.com/{bar++}", "x}", "{id"]) {
      expect(message(() => urlTemplateVariables(bad)), bad).toBe("Invalid URL template.");
    }
  });
});

describe("checkLinkifier", () => {
  it("requires the template's variables to be the pattern's groups", () => {
    expect(message(() => checkLinkifier("ZUL-(?P<id>\\d+)", "$fgfg"))).toBe("Group 'id' in linkifier pattern is not present in URL template.");
    expect(message(() => checkLinkifier("ZUL-(?P<id>\\d+)", "https://realm.com/my_realm_filter/{hello}"))).toBe(
      "Group 'hello' in URL template is not present in linkifier pattern.",
    );
    expect(message(() => checkLinkifier("ZUL-(?P<id>\\d+)-(?P<hello>\\d+)", "https://realm.com/{hello}"))).toBe(
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
    expect(message(() => checkLinkifier("#(?P<id>[123])", "{id"))).toBe("Invalid URL template.");
    expect(message(() => checkLinkifier("ZULZ-(?P<hello>\\d+)-(?P<world>\\d+)", "https://realm.com/{hello}/{world}"))).toBe("no error");
  });
});
