import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderLookups } from "./render.js";

// Edge cases where Zulip's renderer has a particular, observable answer.
const lookups: RenderLookups = {
  users: [],
  groups: [],
  streams: [],
  realmEmoji: [],
  realmUrl: "https://chat.example.org",
};

function html(content: string): string {
  return renderMarkdown(content, lookups).html;
}

describe("emoji names and versions", () => {
  it("leaves emoji newer than Emoji 15.0 as plain text", () => {
    expect(html("rising: 🐦‍🔥")).toBe("<p>rising: 🐦‍🔥</p>");
  });

  it("uses Zulip's names for kiwi and cooking", () => {
    expect(html(":kiwi:")).toContain('class="emoji emoji-1f95d"');
    expect(html("eggs :fried_egg:")).toBe("<p>eggs :fried_egg:</p>");
  });
});

describe("code fences", () => {
  it("is not a fence when the info string holds a fence character", () => {
    expect(html("~~~note: the end~~~")).toBe("<p>~~~note: the end~~~</p>");
    expect(html("~~~py `x`")).toBe("<p>~~~py <code>x</code></p>");
  });

  it("still opens a fence with a plain info string", () => {
    expect(html("~~~\nx\n~~~")).toContain("<code>x\n</code>");
  });
});

describe("block quotes", () => {
  it("shows a lone or innermost empty `>` as text", () => {
    expect(html(">")).toBe("<p>&gt;</p>");
    expect(html(">\n>")).toBe("<p>&gt;<br>\n&gt;</p>");
    expect(html(">>")).toBe("<blockquote>\n<p>&gt;</p>\n</blockquote>");
  });

  it("keeps text after empty `>` lines in the quote until a blank line", () => {
    expect(html(">\n>\nquoted\n\nafter")).toBe("<blockquote>\n<p>quoted</p>\n</blockquote>\n<p>after</p>");
    expect(html("> one\n>\ntwo")).toBe("<blockquote>\n<p>one</p>\n<p>two</p>\n</blockquote>");
  });

  it("still ends the quote at a list item or heading", () => {
    expect(html("> q\n- item")).toBe("<blockquote>\n<p>q</p>\n</blockquote>\n<ul>\n<li>item</li>\n</ul>");
    expect(html("> q\n>\n# Title")).toBe("<blockquote>\n<p>q</p>\n</blockquote>\n<h1>Title</h1>");
  });
});

describe("free-form global times", () => {
  it("reads English dates with a reader and shows an error without one", async () => {
    const { parseFreeFormTime } = await import("./free-form-time.js");
    const withReader = (content: string) => renderMarkdown(content, { ...lookups, parseFreeFormTime }).html;
    expect(withReader("<time:Mar 3rd 2021, 9:15PM>")).toBe('<p><time datetime="2021-03-03T21:15:00Z">Mar 3rd 2021, 9:15PM</time></p>');
    expect(withReader("<time:7 Aug 2022>")).toBe('<p><time datetime="2022-08-07T00:00:00Z">7 Aug 2022</time></p>');
    expect(withReader("<time:7 Aug 2022 6:00 pm IST>")).toContain('datetime="2022-08-07T12:30:00Z"');
    expect(withReader("<time:next week>")).toBe('<p><span class="timestamp-error">Invalid time format: next week</span></p>');
    expect(html("<time:7 Aug 2022>")).toContain("timestamp-error");
  });
});

describe("where bare links end", () => {
  it("links a URL followed by closing punctuation and then a space or the end", () => {
    expect(html('see "https://example.org/a", ok')).toBe('<p>see "<a href="https://example.org/a">https://example.org/a</a>", ok</p>');
    expect(html("**https://example.org**")).toContain('<a href="https://example.org">');
  });

  it("leaves a URL or email run into other text unlinked", () => {
    expect(html("<img src=https://example.org/x.png<i>")).toBe("<p>&lt;img src=https://example.org/x.png&lt;i&gt;</p>");
    expect(html("me@example.org/path")).toBe("<p>me@example.org/path</p>");
  });
});

describe("parentheses in bare links", () => {
  it("links up to six levels of nesting and leaves deeper URLs as text", () => {
    const six = "https://example.org/(a(b(c(d(e(f)e)d)c)b)a)";
    const seven = "https://example.org/(a(b(c(d(e(f(g)f)e)d)c)b)a)";
    expect(html(six)).toBe(`<p><a href="${six}">${six}</a></p>`);
    expect(html(seven)).toBe(`<p>${seven}</p>`);
  });
});

describe("trailing spaces", () => {
  it("keeps the spaces ending a paragraph or list item, not those before a line break", () => {
    expect(html("done  ")).toBe("<p>done  </p>");
    expect(html("one  \ntwo")).toBe("<p>one<br>\ntwo</p>");
    expect(html("- first \n- second")).toBe("<ul>\n<li>first </li>\n<li>second</li>\n</ul>");
  });
});
