import { describe, expect, it } from "vitest";
import { highlightCode } from "./highlight/highlight.js";
import { renderMarkdown, type RenderLookups } from "./render.js";

const lookups: RenderLookups = {
  users: [{ id: 1, full_name: 'x" onclick="alert(1)' }],
  groups: [{ id: 2, name: "<img src=x onerror=alert(1)>", member_ids: [] }],
  streams: [{ id: 3, name: '"><script>alert(1)</script>' }],
  realmEmoji: [{ id: "4", name: "evil", source_url: 'x" onerror="alert(1)' }],
  realmUrl: "https://zulip.example.com",
};

function html(content: string): string {
  return renderMarkdown(content, lookups).html;
}

/**
 * Checks the HTML structurally: every `<` must start a well-formed tag (text
 * `<` is always escaped), attribute values are quoted without raw quotes
 * inside, and no tag carries an event handler, a `javascript:`/`data:` URL,
 * or a tag name outside what the renderer emits.
 */
const ALLOWED_TAGS = new Set([
  "p", "br", "hr", "em", "strong", "del", "code", "pre", "div", "span", "a", "img", "blockquote", "time",
  "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
  // KaTeX output.
  "math", "semantics", "mrow", "mi", "mn", "mo", "msup", "msub", "msubsup", "mtext", "mstyle", "mspace",
  "annotation", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mpadded", "svg", "path", "line",
]);
function expectNoActiveContent(out: string): void {
  const TAG = /<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9-]*="[^"<>]*")*)\s*\/?>/gy;
  let index = 0;
  while ((index = out.indexOf("<", index)) !== -1) {
    TAG.lastIndex = index;
    const match = TAG.exec(out);
    expect(match, `malformed tag at ${out.slice(index, index + 40)}`).not.toBeNull();
    const [, , name, attributes] = match!;
    expect(ALLOWED_TAGS.has(name), name).toBe(true);
    for (const [, attr, value] of attributes.matchAll(/([a-z][a-z0-9-]*)="([^"]*)"/g)) {
      expect(attr.startsWith("on"), attr).toBe(false);
      if (attr === "href" || attr === "src") {
        expect(value).not.toMatch(/^\s*(?:javascript|data|vbscript):/i);
      }
    }
    index = TAG.lastIndex;
  }
}

describe("renderMarkdown safety", () => {
  it("escapes raw HTML instead of passing it through", () => {
    expect(html("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(html("<<script>script>evil()<</script>/script>")).toBe(
      "<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>",
    );
    expect(html('<img src=x onerror="alert(1)">')).toBe('<p>&lt;img src=x onerror="alert(1)"&gt;</p>');
    expect(html("*<h1>Hello</h1>*")).toBe("<p><em>&lt;h1&gt;Hello&lt;/h1&gt;</em></p>");
  });

  it("escapes HTML blocks (no raw HTML flow)", () => {
    expect(html("<div>\n<script>x</script>\n</div>")).toBe(
      "<p>&lt;div&gt;<br>\n&lt;script&gt;x&lt;/script&gt;<br>\n&lt;/div&gt;</p>",
    );
  });

  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "&#106;avascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox(1)",
    "itms://itunes.com/apps/x",
  ])("does not link [x](%s)", (url) => {
    const out = html(`[x](${url})`);
    expect(out).not.toContain("<a ");
    expect(renderMarkdown(`[x](${url})`, lookups).hasLink).toBe(false);
  });

  it("keeps a refused link as the text typed", () => {
    expect(html("[x](javascript:alert(1))")).toBe("<p>[x](javascript:alert(1))</p>");
  });

  it("escapes quotes in link destinations and titles", () => {
    expect(html('[x](https://a.com/"onmouseover="alert(1) "t\\" onclick=\\"y")')).not.toMatch(/"\s*onmouseover=/);
    const out = html('[x](https://a.com/ "t\\" onclick=\\"y")');
    expect(out).toBe('<p><a href="https://a.com/" title="t&quot; onclick=&quot;y">x</a></p>');
  });

  it("escapes user, group, channel and realm emoji values in attributes and text", () => {
    const out = html(
      '@**x" onclick="alert(1)** @*<img src=x onerror=alert(1)>* #**"><script>alert(1)</script>** :evil:',
    );
    expectNoActiveContent(out);
    expect(out).toBe(
      '<p><span class="user-mention" data-user-id="1">@x&quot; onclick=&quot;alert(1)</span> ' +
        '<span class="user-group-mention" data-user-group-id="2">@&lt;img src=x onerror=alert(1)&gt;</span> ' +
        '<a class="stream" data-stream-id="3" href="/#narrow/channel/3-.22.3E.3Cscript.3Ealert.281.29.3C.2Fscript.3E">' +
        "#&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a> " +
        '<img alt=":evil:" class="emoji" src="x&quot; onerror=&quot;alert(1)" title="evil"></p>',
    );
  });

  it("escapes HTML inside code", () => {
    expect(html("`<script>`")).toBe("<p><code>&lt;script&gt;</code></p>");
    expect(html("~~~\n<h1>stay normal</h1>\n~~~")).toBe(
      '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>',
    );
  });

  it("escapes HTML inside highlighted code, whatever the language", () => {
    const withHighlighter = (content: string) => renderMarkdown(content, { ...lookups, highlightCode }).html;
    for (const language of ["python", "html", "xml", "php", "js", "tex", "markdown", "sh"]) {
      const out = withHighlighter(`\`\`\`${language}\n<script>alert("x")</script> <img src=x onerror='y'> \\"}{\n\`\`\``);
      expectNoActiveContent(out);
      expect(out, language).not.toMatch(/<script|<img/);
    }
    expectNoActiveContent(withHighlighter('```\n#!python\n"""<script>"""\n```'));
  });

  it("escapes emoticons' neighbours like any text", () => {
    const out = renderMarkdown("<3<script>:)", { ...lookups, translateEmoticons: true }).html;
    expect(out).toBe("<p>&lt;3&lt;script&gt;:)</p>");
  });

  it("escapes HTML in a global time", () => {
    expect(html('<time:"><script>>')).toBe(
      '<p><span class="timestamp-error">Invalid time format: &quot;</span>&lt;script&gt;&gt;</p>',
    );
  });

  it("produces no active content for a mixed hostile message", () => {
    const out = html(
      [
        '<a href="javascript:alert(1)">x</a>',
        "[a](javascript:alert(1)) [b](data:text/html,x)",
        "```spoiler <img src=x onerror=alert(1)>",
        "<svg onload=alert(1)>",
        "```",
        "$$\\href{javascript:alert(1)}{x}$$",
        "<time:<img src=x onerror=alert(1)>>",
      ].join("\n"),
    );
    expectNoActiveContent(out);
  });
});
