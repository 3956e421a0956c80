import { describe, expect, it } from "vitest";
import { alertWordText, cleanAlertWords, usersWithAlertWords, withAlertWords, withoutAlertWords } from "./alert-words.js";

describe("alert word lists", () => {
  it("cleans, adds and removes as Zulip does", () => {
    expect(cleanAlertWords([" a ", "", "  ", "b"])).toEqual(["a", "b"]);
    expect(withAlertWords(["Foo"], ["foo", "bar", "BAR"])).toEqual(["Foo", "BAR"]);
    expect(withoutAlertWords(["Foo", "bar"], ["FOO", "zzz"])).toEqual(["bar"]);
  });
});

describe("usersWithAlertWords", () => {
  const words = new Map([
    [1, ["deploy"]],
    [2, ["big bang"]],
  ]);
  const match = (content: string) => [...usersWithAlertWords(content, words)].sort();

  it("matches case-insensitively on word boundaries", () => {
    expect(match("Deploy and a BIG BANG")).toEqual([1, 2]);
    expect(match("[deploy]")).toEqual([1]);
    expect(match("'deploy'!")).toEqual([1]);
    expect(match("redeploy deployment deploy-x")).toEqual([]);
    expect(match("x deploy")).toEqual([1]);
  });

  it("skips fenced code and inline code spans but keeps quote and spoiler fences", () => {
    expect(alertWordText("a\n```js\ndeploy\n```\nb")).toBe("a\nb");
    expect(alertWordText("````\n```\ndeploy\n````\nc")).toBe("c");
    expect(match("```spoiler Title\ndeploy\n```")).toEqual([1]);
    expect(match("`deploy`")).toEqual([]);
    expect(match("``a ` deploy``, then deploy")).toEqual([1]);
    expect(match("run `deploy` and ``deploy``")).toEqual([]);
    expect(match("`deploy")).toEqual([1]);
    expect(match("```\ndeploy")).toEqual([]);
  });
});
