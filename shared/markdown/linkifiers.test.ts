import { describe, expect, it } from "vitest";
import { compileLinkifiers, linkifierMatches, type Linkifier } from "./linkifiers.js";
import { renderMarkdown, type RenderLookups } from "./render.js";
import { topicLinks } from "./topic-links.js";

const trac: Linkifier = { id: 1, pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://trac.example.com/ticket/{id}" };

function html(content: string, linkifiers: Linkifier[] = [trac]): string {
  const lookups: RenderLookups = {
    users: [{ id: 13, full_name: "Iago" }],
    groups: [],
    streams: [],
    realmEmoji: [],
    realmUrl: "https://zulip.example.com",
    linkifiers,
  };
  return renderMarkdown(content, lookups).html;
}

const a = (id: string) => `<a href="https://trac.example.com/ticket/${id}">#${id}</a>`;

describe("linkifiers in messages", () => {
  it("links matches between words and punctuation, not inside words (Zulip's test_realm_patterns)", () => {
    // Prepare / Act
    const out = html(
      "We should fix #224 #336 #446 and #115, but not issue#124 or #1124z or [trac #15](https://trac.example.com/ticket/16) today.",
    );
    // Assess
    expect(out).toBe(
      `<p>We should fix ${a("224")} ${a("336")} ${a("446")} and ${a("115")}, but not issue#124 or #1124z or ` +
        '<a href="https://trac.example.com/ticket/16">trac #15</a> today.</p>',
    );
  });

  it("applies Zulip's boundaries", () => {
    expect(html("(#123)")).toBe(`<p>(${a("123")})</p>`);
    expect(html('"#123"')).toBe(`<p>"${a("123")}"</p>`);
    expect(html("#123@")).toBe(`<p>${a("123")}@</p>`);
    expect(html("Hello\u00a0#123\u00a0World")).toBe(`<p>Hello\u00a0${a("123")}\u00a0World</p>`);
    expect(html("##123")).toBe("<p>##123</p>");
    expect(html(")#123(")).toBe("<p>)#123(</p>");
    expect(html("チケットは #123です")).toBe("<p>チケットは #123です</p>");
  });

  it("does not link inside code, links, bare URLs or mentions", () => {
    expect(html("`#123` and\n\n```\n#456\n```")).toBe(
      '<p><code>#123</code> and</p>\n<div class="codehilite"><pre><span></span><code>#456\n</code></pre></div>',
    );
    expect(html("see https://example.com/#123 now")).toBe(
      '<p>see <a href="https://example.com/#123">https://example.com/#123</a> now</p>',
    );
    expect(html("@**Iago** #12")).toBe(`<p><span class="user-mention" data-user-id="13">@Iago</span> ${a("12")}</p>`);
  });

  it("links in headings, emphasis, quotes, lists and tables; judges the boundary on the source", () => {
    expect(html("# fix #12")).toBe(`<h1>fix ${a("12")}</h1>`);
    expect(html("*see #12*")).toBe(`<p><em>see ${a("12")}</em></p>`);
    // Zulip sees `*` just before `#`: no match.
    expect(html("**#12**")).toBe("<p><strong>#12</strong></p>");
    expect(html("> #12\n\n- #34")).toBe(`<blockquote>\n<p>${a("12")}</p>\n</blockquote>\n<ul>\n<li>${a("34")}</li>\n</ul>`);
  });

  it("applies linkifiers in the organization's order: an earlier one's match wins", () => {
    const first: Linkifier = { id: 1, pattern: "(?P<id>ABC-[0-9]+)", url_template: "https://one.example.com/{id}" };
    const second: Linkifier = { id: 2, pattern: "(?P<id>[A-Z][A-Z0-9]*-[0-9]+)", url_template: "https://two.example.com/{id}" };
    expect(html("fix ABC-123 and XY-1", [first, second])).toBe(
      '<p>fix <a href="https://one.example.com/ABC-123">ABC-123</a> and <a href="https://two.example.com/XY-1">XY-1</a></p>',
    );
    expect(html("fix ABC-123", [second, first])).toBe('<p>fix <a href="https://two.example.com/ABC-123">ABC-123</a></p>');
  });

  it("expands RFC 6570 templates, keeps percent-escapes, escapes text and refuses unsafe schemes", () => {
    const escaped: Linkifier = { id: 3, pattern: "url-(?P<id>[0-9]+)", url_template: "https://example.com/A%20Test/%%%ba/{id}" };
    expect(html("url-123 is well-escaped", [escaped])).toBe(
      '<p><a href="https://example.com/A%20Test/%25%25%ba/123">url-123</a> is well-escaped</p>',
    );
    const spaces: Linkifier = { id: 4, pattern: "community guidelines", url_template: "https://zulip.com/development-community/#community-norms" };
    expect(html("please observe community guidelines here", [spaces])).toBe(
      '<p>please observe <a href="https://zulip.com/development-community/#community-norms">community guidelines</a> here</p>',
    );
    const evil: Linkifier = { id: 5, pattern: "x<(?P<id>[a-z]+)", url_template: "javascript:{id}" };
    expect(html("x<alert", [evil])).toBe("<p>x&lt;alert</p>");
    const lt: Linkifier = { id: 6, pattern: "T<(?P<id>[a-z]+)>", url_template: "https://example.com/{id}" };
    expect(html("T<abc>", [lt])).toBe('<p><a href="https://example.com/abc">T&lt;abc&gt;</a></p>');
  });

  it("reports a link and renders plain text unchanged without linkifiers", () => {
    const lookups: RenderLookups = { users: [], groups: [], streams: [], realmEmoji: [], realmUrl: "https://z.example.com", linkifiers: [trac] };
    expect(renderMarkdown("fix #12", lookups).hasLink).toBe(true);
    expect(html("fix #12", [])).toBe("<p>fix #12</p>");
  });

  it("stays linear on a pattern that backtracking engines blow up on", () => {
    const nested: Linkifier = { id: 7, pattern: "(?P<id>(a+)+)b", url_template: "https://example.com/{id}" };
    const [compiled] = compileLinkifiers([nested]);
    const started = process.hrtime.bigint();
    expect(linkifierMatches(compiled, `${"a".repeat(5000)}c`)).toEqual([]);
    // Generous: a backtracking engine takes longer than the age of the universe here.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(5);
  });
});

describe("topicLinks with linkifiers (Zulip's topic_links)", () => {
  it("finds linkifier matches and URLs in position order", async () => {
    expect(await topicLinks("#111 https://google.com #222", [trac])).toEqual([
      { url: "https://trac.example.com/ticket/111", text: "#111" },
      { url: "https://google.com", text: "https://google.com" },
      { url: "https://trac.example.com/ticket/222", text: "#222" },
    ]);
  });

  it("resolves overlaps by linkifier order, linkifiers before URLs (test_topic_links_ordering_by_priority)", async () => {
    const linkifiers: Linkifier[] = [
      { id: 1, pattern: "http", url_template: "http://example.com/" },
      { id: 2, pattern: "b#(?P<id>[a-z]+)", url_template: "http://example.com/b/{id}" },
      { id: 3, pattern: "a#(?P<aid>[a-z]+) b#(?P<bid>[a-z]+)", url_template: "http://example.com/a/{aid}/b/{bid}" },
      { id: 4, pattern: "a#(?P<id>[a-z]+)", url_template: "http://example.com/a/{id}" },
    ];
    expect(await topicLinks("http://foo.com a#asd b#bar", linkifiers)).toEqual([
      { text: "http", url: "http://example.com/" },
      { text: "a#asd", url: "http://example.com/a/asd" },
      { text: "b#bar", url: "http://example.com/b/bar" },
    ]);
  });

  it("keeps a URL that starts before a lower linkifier's match", async () => {
    const linkifiers: Linkifier[] = [
      { id: 1, pattern: "ABC-42", url_template: "https://google.com" },
      { id: 2, pattern: "com.+(?P<id>ABC\\-[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" },
    ];
    expect(await topicLinks("https://foo.com/ABC-123", linkifiers)).toEqual([{ url: "https://foo.com/ABC-123", text: "https://foo.com/ABC-123" }]);
    expect(await topicLinks("com https://foo.com/ABC-123", linkifiers)).toEqual([
      { url: "https://trac.example.com/ticket/ABC-123", text: "com https://foo.com/ABC-123" },
    ]);
  });
});
