import { describe, expect, it } from "vitest";
import { RENDERED_VERSION, renderMarkdown, type RenderLookups } from "./render.js";
import { topicLinks } from "./topic-links.js";

const lookups: RenderLookups = {
  users: [
    { id: 12, full_name: "Full Name", email: "full@example.com" },
    { id: 13, full_name: "Iago" },
    { id: 14, full_name: "Gone User", is_active: false },
    { id: 15, full_name: "Twin" },
    { id: 16, full_name: "twin" },
    { id: 17, full_name: "<b>Evil\" onmouseover=\"x</b>" },
  ],
  groups: [{ id: 3, name: "support", member_ids: [12, 13] }],
  streams: [
    { id: 5, name: "Denmark" },
    { id: 6, name: "my stream" },
  ],
  realmEmoji: [
    { id: "1", name: "green_tick", source_url: "/user_avatars/2/emoji/images/1.png" },
    { id: "2", name: "old", source_url: "/x.png", deactivated: true },
  ],
  realmUrl: "https://zulip.example.com",
};

function html(content: string): string {
  return renderMarkdown(content, lookups).html;
}

const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

describe("renderMarkdown", () => {
  describe("paragraphs and inline formatting", () => {
    it("renders an empty message as empty HTML", () => {
      expect(html("")).toBe("");
    });

    it("wraps text in a paragraph and keeps apostrophes and quotes as typed", () => {
      expect(html(`it's "lunch" time`)).toBe(`<p>it's "lunch" time</p>`);
    });

    it("turns single newlines into <br> (nl2br) and blank lines into paragraphs", () => {
      expect(html("test\nbar\n\nnext")).toBe("<p>test<br>\nbar</p>\n<p>next</p>");
      expect(html("a\r\nb")).toBe("<p>a<br>\nb</p>");
    });

    it("renders *emphasis*, **strong**, ***both*** and ~~strikethrough~~", () => {
      expect(html("*foo* **bar** ***baz*** ~~gone~~")).toBe(
        "<p><em>foo</em> <strong>bar</strong> <strong><em>baz</em></strong> <del>gone</del></p>",
      );
    });

    it("strikes through ~~ text ~~ with spaces inside, keeping the spaces, like Zulip", () => {
      expect(html("it was ~~ cheap ~~ free")).toBe("<p>it was <del> cheap </del> free</p>");
      expect(html("~~ a~~ b ~~c ~~")).toBe("<p><del> a</del> b <del>c </del></p>");
      // Lone or tripled tildes stay text.
      expect(html("about ~~ 5 and ~~~x~~~")).toBe("<p>about ~~ 5 and ~~~x~~~</p>");
    });

    it("does not let **strong** span lines, as Zulip's inline pattern does not", () => {
      expect(html("a **b\nc** d")).toBe("<p>a **b<br>\nc** d</p>");
      expect(html("**one**\n**two** *x\ny*")).toBe("<p><strong>one</strong><br>\n<strong>two</strong> <em>x<br>\ny</em></p>");
    });

    it("nests ***text*** as <strong><em>, like Zulip", () => {
      expect(html("***x*** and ***y** z*")).toBe("<p><strong><em>x</em></strong> and <em><strong>y</strong> z</em></p>");
    });

    it("leaves underscores and single tildes alone (Zulip has no _emphasis_)", () => {
      expect(html("_foo_ __init__ snake_case ~x~")).toBe("<p>_foo_ __init__ snake_case ~x~</p>");
    });

    it("renders headings with # only", () => {
      expect(html("# Hello world")).toBe("<h1>Hello world</h1>");
      expect(html("#Hello")).toBe("<p>#Hello</p>");
      expect(html("text\n===")).toBe("<p>text<br>\n===</p>");
    });

    it("renders a thematic break as <hr>", () => {
      expect(html("a\n\n---\n\nb")).toBe("<p>a</p>\n<hr>\n<p>b</p>");
    });

    it("renders inline code without processing its content", () => {
      expect(html("`<&nbsp;> @**Iago** :smile: #**Denmark** <time:1496701800>`")).toBe(
        "<p><code>&lt;&amp;nbsp;&gt; @**Iago** :smile: #**Denmark** &lt;time:1496701800&gt;</code></p>",
      );
    });

    it("keeps the spaces just inside inline code, as Zulip does (no CommonMark padding strip)", () => {
      expect(html("a `` padded `` b ` x ` c")).toBe("<p>a <code> padded </code> b <code> x </code> c</p>");
    });

    it("leaves quotes in inline code unescaped, like other text", () => {
      expect(html(`\`say "hi" & 'bye'\``)).toBe(`<p><code>say "hi" &amp; 'bye'</code></p>`);
    });

    it("decodes character references", () => {
      expect(html("& &amp; &amp;amp;")).toBe("<p>&amp; &amp; &amp;amp;</p>");
    });
  });

  describe("lists and quotes", () => {
    it("renders bullet and numbered lists", () => {
      expect(html("Some text:\n\n* One\n* Two")).toBe("<p>Some text:</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>");
      expect(html("3. A\n3. B")).toBe('<ol start="3">\n<li>A</li>\n<li>B</li>\n</ol>');
    });

    it("nests list items indented by 2 spaces, bullets and numbers alike, like Zulip", () => {
      expect(html("* fruit\n  * apple\n  * pear\n* veg")).toBe(
        "<ul>\n<li>fruit<ul>\n<li>apple</li>\n<li>pear</li>\n</ul>\n</li>\n<li>veg</li>\n</ul>",
      );
      expect(html("Plan:\n1. wake\n  2. coffee\n    3. beans\n2. work")).toBe(
        "<p>Plan:</p>\n<ol>\n<li>wake<ol start=\"2\">\n<li>coffee<ol start=\"3\">\n<li>beans</li>\n</ol>\n</li>\n</ol>\n</li>\n<li>work</li>\n</ol>",
      );
      // One space is not enough to nest; continuation text needs 2 spaces under `1.` too.
      expect(html("* a\n * b")).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>");
      expect(html("1. a\n  still a")).toBe("<ol>\n<li>a<br>\nstill a</li>\n</ol>");
    });

    it("lets any list item follow a text line, but not a number of two digits", () => {
      expect(html("Steps\n4. four\n5. five")).toBe('<p>Steps</p>\n<ol start="4">\n<li>four</li>\n<li>five</li>\n</ol>');
      expect(html("Year\n12. twelve")).toBe("<p>Year<br>\n12. twelve</p>");
    });

    it("keeps items with different bullets in one list, but numbers in another", () => {
      expect(html("* red\n- green\n+ blue")).toBe("<ul>\n<li>red</li>\n<li>green</li>\n<li>blue</li>\n</ul>");
      expect(html("- red\n1. one")).toBe("<ul>\n<li>red</li>\n</ul>\n<ol>\n<li>one</li>\n</ol>");
    });

    it("renders > block quotes", () => {
      expect(html("> Hello World!\n\n> Hello Universe!")).toBe(
        "<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>",
      );
    });

    it("renders ```quote fences as block quotes with Markdown inside", () => {
      expect(html("Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~")).toBe(
        "<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>",
      );
      expect(html("```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.")).toBe(
        "<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>",
      );
      expect(html("```quoted\nx\n```")).toBe("<blockquote>\n<p>x</p>\n</blockquote>");
    });

    it("keeps a code block inside a quote fence from closing the quote", () => {
      expect(html("```quote\nbefore\n```python\nx = 1\n```\nafter\n```\nout")).toBe(
        "<blockquote>\n<p>before</p>\n" +
          '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = 1\n</code></pre></div>\n' +
          "<p>after</p>\n</blockquote>\n<p>out</p>",
      );
    });

    it("runs an unclosed quote fence to the end of the message", () => {
      expect(html("```quote\nopen")).toBe("<blockquote>\n<p>open</p>\n</blockquote>");
    });

    it("refuses quote nesting past the limit (bounded work)", () => {
      const deep = "```quote\n".repeat(40) + "x";
      const out = html(deep);
      expect(out.split("<blockquote>").length - 1).toBe(16);
    });
  });

  describe("spoilers", () => {
    it("renders a spoiler with a Markdown header", () => {
      expect(html("```spoiler header :smile:\ncontent\n```\noutside spoiler\n")).toBe(
        '<div class="spoiler-block"><div class="spoiler-header">\n' +
          `<p>header ${smile}</p>\n` +
          '</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n' +
          "<p>outside spoiler</p>",
      );
    });

    it("renders a spoiler without header", () => {
      expect(html("```spoiler\ncontent\n```")).toBe(
        '<div class="spoiler-block"><div class="spoiler-header">\n' +
          '</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
      );
    });

    it("nests a spoiler inside a quote", () => {
      expect(html("~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote")).toBe(
        "<blockquote>\n" +
          '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n' +
          '</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n' +
          "<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>",
      );
    });

    it("escapes HTML in the header and content", () => {
      expect(html("```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```")).toBe(
        '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n' +
          '</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
      );
    });
  });

  describe("code blocks", () => {
    it("renders a fenced block with Zulip's codehilite markup and the Pygments language name", () => {
      expect(html("Hamlet said:\n```python\ndef speak(self):\n    x = 1\n```")).toBe(
        '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
          "def speak(self):\n    x = 1\n</code></pre></div>",
      );
      expect(html("``` py2\nx\n```")).toContain('data-code-language="Python 2.x"');
      expect(html("``` inventedlanguage\nx\n```")).toContain('data-code-language="inventedlanguage"');
    });

    it("renders a block without language, tilde fences and indented code", () => {
      expect(html("~~~\nint x = 3\n* 4;\n~~~")).toBe(
        '<div class="codehilite"><pre><span></span><code>int x = 3\n* 4;\n</code></pre></div>',
      );
      expect(html("    def foo(): pass")).toBe(
        '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>',
      );
    });

    it("strips trailing whitespace and escapes the code", () => {
      expect(html("```\n<h1>x</h1>   \necho \"hi\" 'x'\t\n```")).toBe(
        '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;x&lt;/h1&gt;\necho &quot;hi&quot; &#39;x&#39;\n</code></pre></div>',
      );
    });

    it("does not process mentions, emoji or links inside code", () => {
      const result = renderMarkdown("```\n@**Iago** @**all** :smile: https://x.com #**Denmark**\n```", lookups);
      expect(result.html).toBe(
        '<div class="codehilite"><pre><span></span><code>@**Iago** @**all** :smile: https://x.com #**Denmark**\n</code></pre></div>',
      );
      expect(result.mentionedUserIds).toEqual([]);
      expect(result.wildcardMention).toBeNull();
      expect(result.hasLink).toBe(false);
    });

    it("accepts a language written with a leading dot or in braces", () => {
      expect(html("~~~.rust\nfn x() {}\n~~~")).toContain('data-code-language="Rust"');
      expect(html("``` {.js}\nlet a;\n```")).toContain('data-code-language="JavaScript"');
    });

    it("drops blank lines at the start and end of a code block", () => {
      expect(html("```\n\n\nfirst\n\nlast\n\n\n```")).toBe(
        '<div class="codehilite"><pre><span></span><code>first\n\nlast\n</code></pre></div>',
      );
      expect(html("> ```\n>\n> only")).toBe(
        '<blockquote>\n<div class="codehilite"><pre><span></span><code>only\n</code></pre></div>\n</blockquote>',
      );
    });

    it("escapes a hostile language name", () => {
      expect(html('```"><script>\nx\n```')).toBe(
        '<div class="codehilite" data-code-language="&quot;&gt;&lt;script&gt;"><pre><span></span><code>x\n</code></pre></div>',
      );
    });
  });

  describe("math", () => {
    it("renders ```math with KaTeX in display mode", () => {
      const out = html("```math\na^2\n```");
      expect(out.startsWith('<p><span class="katex-display"><span class="katex">')).toBe(true);
      expect(out).toContain('<annotation encoding="application/x-tex">a^2</annotation>');
      expect(out.endsWith("</p>")).toBe(true);
    });

    it("renders inline $$…$$ and leaves money amounts alone", () => {
      const out = html("$$x^2$$ costs $5 to $20");
      expect(out.startsWith('<p><span class="katex"><span class="katex-mathml">')).toBe(true);
      expect(out.endsWith(" costs $5 to $20</p>")).toBe(true);
      expect(html("We make $$$ or $$$$!")).toBe("<p>We make $$$ or $$$$!</p>");
      expect(html("`$$a$$`")).toBe("<p><code>$$a$$</code></p>");
    });

    it("shows invalid TeX as a tex-error with the source escaped", () => {
      expect(html("$$\\error{<b>}$$")).toBe('<p><span class="tex-error">$$\\error{&lt;b&gt;}$$</span></p>');
    });

    it("does not let TeX produce links", () => {
      expect(html("$$\\href{javascript:alert(1)}{x}$$")).not.toContain("href=");
    });
  });

  describe("links", () => {
    it("auto-links bare URLs, www. and emails, stopping before trailing punctuation", () => {
      expect(html("see https://example.com/a_b. and www.zulip.com/foo ok, a@b.com")).toBe(
        '<p>see <a href="https://example.com/a_b">https://example.com/a_b</a>. and ' +
          '<a href="http://www.zulip.com/foo">www.zulip.com/foo</a> ok, <a href="mailto:a@b.com">a@b.com</a></p>',
      );
    });

    it("auto-links bare domains with a known top-level domain to http://, like Zulip", () => {
      expect(html("docs at myproject.org, short link bit.ly/x1 and uni.ox.ac.uk/a_(b)c).")).toBe(
        '<p>docs at <a href="http://myproject.org">myproject.org</a>, short link ' +
          '<a href="http://bit.ly/x1">bit.ly/x1</a> and <a href="http://uni.ox.ac.uk/a_(b)c">uni.ox.ac.uk/a_(b)c</a>).</p>',
      );
      expect(html('("shop.example.net/cart/") and **news.example.com**')).toBe(
        '<p>("<a href="http://shop.example.net/cart/">shop.example.net/cart/</a>") and ' +
          '<strong><a href="http://news.example.com">news.example.com</a></strong></p>',
      );
      expect(renderMarkdown("go to team.example.com", lookups).hasLink).toBe(true);
    });

    it("leaves file names, unknown endings and domains inside words, code and links as text", () => {
      expect(html("edit setup.py, notes.md, v1.2.3, ver.nope and x@host.com/y")).toBe(
        '<p>edit setup.py, notes.md, v1.2.3, ver.nope and x@host.com/y</p>',
      );
      expect(html("a/b.com `c.com` [see d.com](https://e.org) f.comx")).toBe(
        '<p>a/b.com <code>c.com</code> <a href="https://e.org">see d.com</a> f.comx</p>',
      );
      expect(renderMarkdown("see setup.py", lookups).hasLink).toBe(false);
    });

    it("renders [text](url) links, showing the URL when the text is empty", () => {
      expect(html("[hello](https://github.com) [](https://github.com)")).toBe(
        '<p><a href="https://github.com">hello</a> <a href="https://github.com">https://github.com</a></p>',
      );
      expect(html("[call me](tel:+14155551234)")).toBe('<p><a href="tel:+14155551234">call me</a></p>');
    });

    it("shows a refused link exactly as typed, quotes included", () => {
      expect(html(`[run](javascript:go("now")) and javascript:"x"`)).toBe(
        `<p>[run](javascript:go("now")) and javascript:"x"</p>`,
      );
    });

    it("makes links into this organization relative", () => {
      expect(html("[foo](https://zulip.example.com/#narrow/channel/5-Denmark)")).toBe(
        '<p><a href="#narrow/channel/5-Denmark">foo</a></p>',
      );
      expect(html("[foo](https://zulip.example.com/https://example.com)")).toBe(
        '<p><a href="https://zulip.example.com/https://example.com">foo</a></p>',
      );
    });

    it("does not support reference definitions, <url> autolinks or image syntax", () => {
      expect(html("Hello [world]\n\n[world]: https://google.com")).toBe(
        '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
      );
      // The link to an image still gets Zulip's preview.
      expect(html("![alt](https://x.com/y.png)")).toBe(
        '<p>!<a href="https://x.com/y.png">alt</a></p>\n' +
          '<div class="message_inline_image"><a href="https://x.com/y.png" title="alt"><img src="https://x.com/y.png"></a></div>',
      );
      expect(html("<https://x.com>")).toBe('<p>&lt;<a href="https://x.com">https://x.com</a>&gt;</p>');
    });
  });

  describe("tables", () => {
    it("renders GFM tables", () => {
      expect(html("First header  | Second header\n------------- | -------------\nContent cell  | Content cell")).toBe(
        "<table>\n<thead>\n<tr>\n<th>First header</th>\n<th>Second header</th>\n</tr>\n</thead>\n" +
          "<tbody>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n</tbody>\n</table>",
      );
    });
  });

  describe("user mentions", () => {
    it("renders a direct mention with the user's full name and reports it", () => {
      const result = renderMarkdown("hi @**full name**", lookups);
      expect(result.html).toBe('<p>hi <span class="user-mention" data-user-id="12">@Full Name</span></p>');
      expect(result.mentionedUserIds).toEqual([12]);
    });

    it("resolves @**Name|id** by id and refuses a name that does not match the id", () => {
      expect(renderMarkdown("@**twin|16** @**|15**", lookups)).toMatchObject({
        html: '<p><span class="user-mention" data-user-id="16">@twin</span> <span class="user-mention" data-user-id="15">@Twin</span></p>',
        mentionedUserIds: [16, 15],
      });
      expect(renderMarkdown("@**Iago|12**", lookups)).toMatchObject({
        html: "<p>@<strong>Iago|12</strong></p>",
        mentionedUserIds: [],
      });
    });

    it("does not resolve an ambiguous name", () => {
      expect(renderMarkdown("@**TWIN**", lookups).mentionedUserIds).toEqual([]);
    });

    it("renders a silent mention without @ and does not report it", () => {
      const result = renderMarkdown("@_**Iago**", lookups);
      expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="13">Iago</span></p>');
      expect(result.mentionedUserIds).toEqual([]);
    });

    it("renders a deactivated user's mention silently", () => {
      const result = renderMarkdown("@**Gone User**", lookups);
      expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="14">Gone User</span></p>');
      expect(result.mentionedUserIds).toEqual([]);
    });

    it("silences mentions inside quotes", () => {
      const result = renderMarkdown("> @**Iago** @**all**\n\n```quote\n@*support*\n```\n\n@**Full Name**", lookups);
      expect(result.html).toBe(
        '<blockquote>\n<p><span class="user-mention silent" data-user-id="13">Iago</span> ' +
          '<span class="user-mention silent" data-user-id="*">all</span></p>\n</blockquote>\n' +
          '<blockquote>\n<p><span class="user-group-mention silent" data-user-group-id="3">support</span></p>\n</blockquote>\n' +
          '<p><span class="user-mention" data-user-id="12">@Full Name</span></p>',
      );
      expect(result.mentionedUserIds).toEqual([12]);
      expect(result.mentionedGroupIds).toEqual([]);
      expect(result.wildcardMention).toBeNull();
    });

    it("renders unknown mentions as the Markdown typed", () => {
      const result = renderMarkdown("@**nobody** @*nogroup*", lookups);
      expect(result.html).toBe("<p>@<strong>nobody</strong> @<em>nogroup</em></p>");
      expect(result.mentionedUserIds).toEqual([]);
    });

    it("needs whitespace or an opening bracket before the @", () => {
      expect(html("mail@**Iago** (@**Iago**)")).toBe(
        '<p>mail@<strong>Iago</strong> (<span class="user-mention" data-user-id="13">@Iago</span>)</p>',
      );
    });

    it("reports each user once, in order", () => {
      expect(renderMarkdown("@**Iago** @**Full Name** @**iago**", lookups).mentionedUserIds).toEqual([13, 12]);
    });

    it("escapes names in the HTML", () => {
      expect(html('@**<b>Evil" onmouseover="x</b>**')).toBe(
        '<p><span class="user-mention" data-user-id="17">@&lt;b&gt;Evil&quot; onmouseover=&quot;x&lt;/b&gt;</span></p>',
      );
    });
  });

  describe("wildcard mentions", () => {
    it.each(["all", "everyone", "stream", "channel"] as const)("renders @**%s** as a stream wildcard", (kind) => {
      const result = renderMarkdown(`@**${kind}**`, lookups);
      expect(result.html).toBe(`<p><span class="user-mention" data-user-id="*">@${kind}</span></p>`);
      expect(result.wildcardMention).toBe(kind);
      expect(result.mentionsStreamWildcard).toBe(true);
      expect(result.mentionsTopicWildcard).toBe(false);
    });

    it("renders @**topic** as a topic wildcard", () => {
      const result = renderMarkdown("@**topic**", lookups);
      expect(result.html).toBe('<p><span class="topic-mention">@topic</span></p>');
      expect(result.wildcardMention).toBe("topic");
      expect(result.mentionsTopicWildcard).toBe(true);
      expect(result.mentionsStreamWildcard).toBe(false);
    });

    it("prefers a stream wildcard when both kinds appear", () => {
      expect(renderMarkdown("@**topic** @**everyone**", lookups).wildcardMention).toBe("everyone");
    });

    it("renders silent wildcards without notifying", () => {
      const result = renderMarkdown("@_**all** @_**topic**", lookups);
      expect(result.html).toBe(
        '<p><span class="user-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
      );
      expect(result.wildcardMention).toBeNull();
    });

    it("is case-sensitive, like Zulip", () => {
      expect(renderMarkdown("@**ALL**", lookups).wildcardMention).toBeNull();
    });
  });

  describe("group mentions", () => {
    it("renders @*group* and reports the group", () => {
      const result = renderMarkdown("@*Support*", lookups);
      expect(result.html).toBe('<p><span class="user-group-mention" data-user-group-id="3">@support</span></p>');
      expect(result.mentionedGroupIds).toEqual([3]);
    });

    it("renders a silent group mention", () => {
      const result = renderMarkdown("@_*support*", lookups);
      expect(result.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="3">support</span></p>');
      expect(result.mentionedGroupIds).toEqual([]);
    });
  });

  describe("channel and topic links", () => {
    it("links #**channel** (case-insensitively)", () => {
      expect(html("#**denmark**")).toBe('<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Denmark">#Denmark</a></p>');
      expect(html("#**my stream**")).toBe(
        '<p><a class="stream" data-stream-id="6" href="/#narrow/channel/6-my-stream">#my stream</a></p>',
      );
    });

    it("links #**channel>topic** with Zulip's hash encoding", () => {
      expect(html("#**Denmark>my topic.v2**")).toBe(
        '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Denmark/topic/my.20topic.2Ev2">#Denmark &gt; my topic.v2</a></p>',
      );
    });

    it("leaves unknown channels as Markdown", () => {
      expect(html("#**nope** #**nope>x**")).toBe("<p>#<strong>nope</strong> #<strong>nope&gt;x</strong></p>");
    });

    it("escapes the topic", () => {
      expect(html('#**Denmark><img src=x onerror="y">**')).toBe(
        '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Denmark/topic/.3Cimg.20src.3Dx.20onerror.3D.22y.22.3E">' +
          "#Denmark &gt; &lt;img src=x onerror=&quot;y&quot;&gt;</a></p>",
      );
    });
  });

  describe("emoji", () => {
    it("renders :name: with Zulip's names, including aliases", () => {
      expect(html(":smile: :+1: :thumbs_up:")).toBe(
        `<p>${smile} <span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span> ` +
          '<span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>',
      );
    });

    it("renders emoji next to text and each other, and unknown names as text", () => {
      expect(html(":cat:hello:dog::rabbit: :not_an_emoji: x::y")).toBe(
        '<p><span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span>hello' +
          '<span aria-label="dog" class="emoji emoji-1f415" role="img" title="dog">:dog:</span>' +
          '<span aria-label="rabbit" class="emoji emoji-1f407" role="img" title="rabbit">:rabbit:</span> :not_an_emoji: x::y</p>',
      );
    });

    it("renders realm emoji (active only) and :zulip:", () => {
      expect(html(":green_tick: :old: :zulip:")).toBe(
        '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"> :old: ' +
          '<img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
      );
    });

    it("wraps Unicode emoji characters and ZWJ/keycap sequences", () => {
      expect(html("💩 🤷‍♀️ #️⃣ ⬆️")).toBe(
        '<p><span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span> ' +
          '<span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span> ' +
          '<span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span> ' +
          '<span aria-label="up" class="emoji emoji-2b06" role="img" title="up">:up:</span></p>',
      );
      expect(html("Extra👽Terrestrial")).toBe(
        '<p>Extra<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span>Terrestrial</p>',
      );
    });

    it("leaves text-style characters and unknown sequences as typed", () => {
      expect(html("© 2024 👍🏽 1")).toBe("<p>© 2024 👍🏽 1</p>");
    });

    it("does not treat skin tones as emoji names", () => {
      expect(html(":skin-tone-2:")).toBe("<p>:skin-tone-2:</p>");
    });
  });

  describe("global times", () => {
    it("renders ISO 8601 and Unix times as <time> in UTC", () => {
      expect(html("<time:2024-01-01T12:00:00+00:00> <time:1496701800> <time:2017-12-31T05:30:00+05:30>")).toBe(
        '<p><time datetime="2024-01-01T12:00:00Z">2024-01-01T12:00:00+00:00</time> ' +
          '<time datetime="2017-06-05T22:30:00Z">1496701800</time> ' +
          '<time datetime="2017-12-31T00:00:00Z">2017-12-31T05:30:00+05:30</time></p>',
      );
      expect(html("<time:2017-12-31>")).toBe('<p><time datetime="2017-12-31T00:00:00Z">2017-12-31</time></p>');
    });

    it("renders an invalid time as Zulip's timestamp-error", () => {
      expect(html("<time:<alert(1)>>")).toBe('<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>');
      expect(html("<time:2023-02-30>")).toBe('<p><span class="timestamp-error">Invalid time format: 2023-02-30</span></p>');
    });
  });

  describe("/me messages", () => {
    it("flags a one-line /me message and renders it as typed", () => {
      const result = renderMarkdown("/me is **happy**", lookups);
      expect(result.html).toBe("<p>/me is <strong>happy</strong></p>");
      expect(result.isMeMessage).toBe(true);
    });

    it("does not flag multi-line or non-/me messages", () => {
      expect(renderMarkdown("/me is\nhappy", lookups).isMeMessage).toBe(false);
      expect(renderMarkdown("/meh", lookups).isMeMessage).toBe(false);
      expect(renderMarkdown("say /me hi", lookups).isMeMessage).toBe(false);
    });
  });

  describe("content flags", () => {
    it("reports links, attachments and uploaded images", () => {
      const result = renderMarkdown(
        "[pic](/user_uploads/2/ab/cd/pic.png) https://zulip.example.com/user_uploads/2/x/y/doc.pdf",
        lookups,
      );
      expect(result.html).toBe(
        '<p><a href="/user_uploads/2/ab/cd/pic.png">pic</a> ' +
          '<a href="user_uploads/2/x/y/doc.pdf">https://zulip.example.com/user_uploads/2/x/y/doc.pdf</a></p>\n' +
          '<div class="message_inline_image"><a href="/user_uploads/2/ab/cd/pic.png" title="pic"><img src="/user_uploads/2/ab/cd/pic.png"></a></div>',
      );
      expect(result).toMatchObject({ hasLink: true, hasAttachment: true, hasImage: true });
      expect(result.attachmentPathIds).toEqual(["2/ab/cd/pic.png", "2/x/y/doc.pdf"]);
    });

    it("reports a plain link without attachment", () => {
      expect(renderMarkdown("see https://example.com", lookups)).toMatchObject({
        hasLink: true,
        hasAttachment: false,
        hasImage: false,
      });
    });

    it("reports nothing for plain text, channel links and mentions", () => {
      expect(renderMarkdown("#**Denmark** @**Iago** hello", lookups)).toMatchObject({
        hasLink: false,
        hasAttachment: false,
        hasImage: false,
        renderedVersion: RENDERED_VERSION,
      });
    });
  });
});

describe("topicLinks", () => {
  it("finds bare URLs in a topic, trimming trailing punctuation", async () => {
    expect(await topicLinks("see https://example.com/a_(b), and www.zulip.com.")).toEqual([
      { text: "https://example.com/a_(b)", url: "https://example.com/a_(b)" },
      { text: "www.zulip.com", url: "https://www.zulip.com" },
    ]);
  });

  it("returns nothing for a topic without URLs", async () => {
    expect(await topicLinks("lunch plans")).toEqual([]);
  });
});

describe("display math errors", () => {
  it("escapes quotes in a display block's error, not in an inline one", () => {
    expect(html("```math\n\\nope{'a'}\n```")).toBe(`<p><span class="tex-error">\\nope{&#x27;a&#x27;}</span></p>`);
    expect(html("$$\\nope{'a'}$$")).toBe(`<p><span class="tex-error">$$\\nope{'a'}$$</span></p>`);
  });
});

describe("emoticons", () => {
  it("become emoji only for a sender who translates them, between terminal symbols", () => {
    const withEmoticons = (content: string) => renderMarkdown(content, { ...lookups, translateEmoticons: true }).html;
    expect(html("ok :)")).toBe("<p>ok :)</p>");
    expect(withEmoticons("ok :)")).toBe(`<p>ok ${smile}</p>`);
    expect(withEmoticons("a(:b and x:) and `:)`")).toBe(`<p>a(:b and x:) and <code>:)</code></p>`);
    expect(withEmoticons("<3!")).toBe(
      '<p><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span>!</p>',
    );
  });
});
