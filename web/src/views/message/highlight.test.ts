// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { highlightCodeBlocks, hljsLanguage } from "./highlight.js";

describe("hljsLanguage", () => {
  it("maps the server's Pygments names to highlight.js languages", () => {
    expect(hljsLanguage("Python")).toBe("python");
    expect(hljsLanguage("C++")).toBe("cpp");
    expect(hljsLanguage("HTML")).toBe("xml");
    expect(hljsLanguage("TSX")).toBe("typescript");
    expect(hljsLanguage("inventedlanguage")).toBeUndefined();
  });
});

describe("highlightCodeBlocks", () => {
  it("highlights a known language once and keeps the code's text", () => {
    const el = document.createElement("div");
    el.innerHTML =
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>def f(x):\n    return "&lt;b&gt;"\n</code></pre></div>' +
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>zz</code></pre></div>';
    highlightCodeBlocks(el);
    const [python, invented] = el.querySelectorAll("code");
    expect(python!.querySelector(".hljs-keyword")?.textContent).toBe("def");
    expect(python!.textContent).toBe('def f(x):\n    return "<b>"\n');
    expect(python!.querySelector("b")).toBeNull();
    const once = python!.innerHTML;
    highlightCodeBlocks(el);
    expect(python!.innerHTML).toBe(once);
    expect(invented!.innerHTML).toBe("zz");
  });
});
