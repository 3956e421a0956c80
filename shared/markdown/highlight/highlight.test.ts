import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderLookups } from "../render.js";
import { highlightCode, highlightLanguage } from "./highlight.js";

const lookups: RenderLookups = { users: [], groups: [], streams: [], realmEmoji: [], realmUrl: "https://zulip.example.com", highlightCode };

function html(content: string): string {
  return renderMarkdown(content, lookups).html;
}

describe("highlightCode", () => {
  it("marks Python tokens with Pygments' classes, merging adjacent punctuation", () => {
    expect(highlightCode("class Cat(Animal):\n    legs = 4", "py")).toBe(
      '<span class="k">class</span> <span class="nc">Cat</span><span class="p">(</span><span class="n">Animal</span><span class="p">):</span>\n' +
        '    <span class="n">legs</span> <span class="o">=</span> <span class="mi">4</span>',
    );
  });

  it("tells single- from double-quoted strings and floats from integers", () => {
    expect(highlightCode("a = 'x' + \"y\" * 2.5", "python")).toBe(
      '<span class="n">a</span> <span class="o">=</span> <span class="s1">&#39;x&#39;</span>'.replace("&#39;x&#39;", "'x'") +
        ' <span class="o">+</span> <span class="s2">&quot;y&quot;</span> <span class="o">*</span> <span class="mf">2.5</span>',
    );
  });

  it("keeps a span from crossing a line end", () => {
    expect(highlightCode('s = """one\ntwo"""', "python")).toBe(
      '<span class="n">s</span> <span class="o">=</span> <span class="s2">&quot;&quot;&quot;one</span>\n<span class="s2">two&quot;&quot;&quot;</span>',
    );
  });

  it("highlights a block without a language whose first line names one, keeping that line", () => {
    expect(highlightCode("#!/usr/bin/env bash\necho hi", undefined)).toMatch(/^<span class="ch">#!\/usr\/bin\/env bash<\/span>\n/);
    expect(highlightCode("plain words", undefined)).toBeUndefined();
  });

  it("does not highlight a language it does not know", () => {
    expect(highlightCode("x", "inventedlanguage")).toBeUndefined();
    expect(highlightLanguage("py2")).toBe("python");
    expect(highlightLanguage("latex")).toBe("latex");
  });
});

describe("renderMarkdown with the highlighter", () => {
  it("wraps highlighted code in Zulip's code block with the language's name", () => {
    expect(html("```js\nlet n = 1;\n```")).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>' +
        '<span class="k">let</span> <span class="nx">n</span> <span class="o">=</span> <span class="mi">1</span><span class="p">;</span>\n' +
        "</code></pre></div>",
    );
  });

  it("writes an unknown language's code plain, quotes escaped", () => {
    expect(html("```madeup\nsay 'hi'\n```")).toBe(
      '<div class="codehilite" data-code-language="madeup"><pre><span></span><code>say &#39;hi&#39;\n</code></pre></div>',
    );
  });

  it("drops blank lines around highlighted code as around plain code", () => {
    expect(html("```tex\n\n\\alpha\n\n```")).toBe(
      '<div class="codehilite" data-code-language="TeX"><pre><span></span><code><span class="k">\\alpha</span>\n</code></pre></div>',
    );
  });
});
