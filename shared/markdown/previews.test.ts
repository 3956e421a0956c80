import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderLookups } from "./render.js";
import { INLINE_PREVIEW_LIMIT } from "./previews.js";

const lookups: RenderLookups = {
  users: [],
  groups: [],
  streams: [],
  realmEmoji: [],
  realmUrl: "https://chat.example.org",
  realmId: 7,
};

const CAT = "https://pics.example.net/animals/cat.png";
const DOG = "https://pics.example.net/animals/dog.JPG";

/** The preview Zulip renders for an image link with Camo disabled. */
function preview(href: string, src = href, title?: string): string {
  return `<div class="message_inline_image"><a href="${href}"${title ? ` title="${title}"` : ""}><img src="${src}"></a></div>`;
}

function link(href: string, text = href): string {
  return `<a href="${href}">${text}</a>`;
}

function render(content: string, extra: Partial<RenderLookups> = {}) {
  return renderMarkdown(content, { ...lookups, ...extra });
}

describe("inline image previews", () => {
  it("loads an external image through the camo proxy when the render has one, not the organization's own images", () => {
    const proxy = (url: string) => `/external_content/sig/${Buffer.from(url).toString("hex")}`;
    const own = "https://chat.example.org/static/logo.png";
    expect(render(CAT, { externalImageUrl: proxy }).html).toBe(preview(CAT, proxy(CAT)));
    expect(render(`[logo](${own})`, { externalImageUrl: proxy }).html).toContain(`<img src="${own}">`);
  });

  it("follows the paragraph holding an image link (Zulip's inline_image)", () => {
    const result = render(`Our cat: ${CAT}\nquite fluffy`);
    expect(result.html).toBe(`<p>Our cat: ${link(CAT)}<br>\nquite fluffy</p>\n${preview(CAT)}`);
    expect(result).toMatchObject({ hasLink: true, hasImage: true, hasAttachment: false });
  });

  it("puts two images of one paragraph after it in order, without a newline between them (two_inline_images)", () => {
    expect(render(`cat ${CAT}\nand\ndog ${DOG}`).html).toBe(
      `<p>cat ${link(CAT)}<br>\nand<br>\ndog ${link(DOG)}</p>\n${preview(CAT)}${preview(DOG)}`,
    );
  });

  it("replaces a paragraph that is only the image URL (only_inline_image)", () => {
    expect(render(CAT).html).toBe(preview(CAT));
    expect(render(`intro\n\n${CAT}\n\noutro`).html).toBe(`<p>intro</p>\n${preview(CAT)}<p>outro</p>`);
    expect(render(`${CAT}\n\n\`\`\`\ncode\n\`\`\``).html).toBe(
      `${preview(CAT)}<div class="codehilite"><pre><span></span><code>code\n</code></pre></div>`,
    );
  });

  it("keeps a named link and gives the preview its text as title", () => {
    expect(render(`[a "cat"](${CAT})`).html).toBe(`<p>${link(CAT, 'a "cat"')}</p>\n${preview(CAT, CAT, "a &quot;cat&quot;")}`);
  });

  it("appends the preview inside a tight list item (bulleted_list_inlining)", () => {
    expect(render(`* first\n* second ${CAT}\n* third`).html).toBe(
      `<ul>\n<li>first</li>\n<li>second ${link(CAT)}${preview(CAT)}</li>\n<li>third</li>\n</ul>`,
    );
    expect(render(`* ${CAT}\n* next`).html).toBe(`<ul>\n<li>${preview(CAT)}</li>\n<li>next</li>\n</ul>`);
    expect(render(`* first\n* last ${CAT}\n\n\`\`\`\nline 1\nline 2\n\`\`\``).html).toBe(
      `<ul>\n<li>first</li>\n<li>last ${link(CAT)}${preview(CAT)}</li>\n</ul>\n` +
        '<div class="codehilite"><pre><span></span><code>line 1\nline 2\n</code></pre></div>',
    );
  });

  it("keeps the preview inside a spoiler's content (spoiler_with_inline_image)", () => {
    expect(render(`\`\`\`spoiler Pet\nLook: ${CAT}\n\`\`\``).html).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>Pet</p>\n</div>' +
        `<div class="spoiler-content" aria-hidden="true">\n<p>Look: ${link(CAT)}</p>\n${preview(CAT)}</div></div>`,
    );
  });

  it("does not preview links inside quotes", () => {
    const result = render(`> ${CAT}\n\n\`\`\`quote\n${DOG}\n\`\`\``);
    expect(result.html).toBe(`<blockquote>\n<p>${link(CAT)}</p>\n</blockquote>\n<blockquote>\n<p>${link(DOG)}</p>\n</blockquote>`);
    expect(result.hasImage).toBe(false);
  });

  it("previews each URL once, at its first link", () => {
    expect(render(`${CAT} again ${CAT}`).html).toBe(`<p>${link(CAT)} again ${link(CAT)}</p>\n${preview(CAT)}`);
  });

  it("puts the preview of a link inside emphasis at the end of the message", () => {
    expect(render(`**${CAT}** bold\n\nnext`).html).toBe(`<p><strong>${link(CAT)}</strong> bold</p>\n<p>next</p>\n${preview(CAT)}`);
  });

  it("only previews Zulip's image extensions, ignoring the query, in any case", () => {
    expect(render("https://pics.example.net/a.svg").hasImage).toBe(false);
    expect(render("https://pics.example.net/page.html?x=.png").hasImage).toBe(false);
    expect(render("https://pics.example.net/photo.WebP?size=2").html).toBe(preview("https://pics.example.net/photo.WebP?size=2"));
    expect(render("https://pasteboard.co/abc.png").hasImage).toBe(false);
  });

  it("previews a GitHub blob link from raw.githubusercontent.com", () => {
    const blob = "https://github.com/owner/repo/blob/main/docs/logo.png";
    expect(render(blob).html).toBe(preview(blob, "https://raw.githubusercontent.com/owner/repo/main/docs/logo.png"));
  });

  it("previews the organization's own uploads with the upload's path, not another organization's", () => {
    const own = "/user_uploads/7/ab/Zx9kq2LmNpQrStUvWxYz0123/photo.png";
    const other = "/user_uploads/8/cd/Zx9kq2LmNpQrStUvWxYz0123/photo.png";
    const result = render(`[photo.png](${own}) [theirs.png](${other})`);
    expect(result.html).toBe(`<p>${link(own, "photo.png")} ${link(other, "theirs.png")}</p>\n${preview(own, own, "photo.png")}`);
    expect(result).toMatchObject({ hasImage: true, hasAttachment: true });
    expect(render("https://chat.example.org/user_uploads/7/ab/cd/pic.gif").html).toBe(
      `<p>${link("user_uploads/7/ab/cd/pic.gif", "https://chat.example.org/user_uploads/7/ab/cd/pic.gif")}</p>\n` +
        preview("user_uploads/7/ab/cd/pic.gif", "user_uploads/7/ab/cd/pic.gif", "https://chat.example.org/user_uploads/7/ab/cd/pic.gif"),
    );
    expect(render(`[doc](/user_uploads/7/ab/cd/notes.pdf)`)).toMatchObject({ hasImage: false, hasAttachment: true });
  });

  it("previews nothing when the message links more distinct URLs than Zulip's limit", () => {
    const links = Array.from({ length: INLINE_PREVIEW_LIMIT }, (_, i) => `https://pics.example.net/${i}.png`);
    expect(render(links.join(" ")).html.match(/message_inline_image/g)).toHaveLength(INLINE_PREVIEW_LIMIT);
    const over = render([...links, "https://example.net/page"].join(" "));
    expect(over.html).not.toContain("message_inline_image");
    expect(over.hasImage).toBe(false);
    // Links in quotes do not count.
    expect(render(`${links.join(" ")}\n\n> https://example.net/page`).hasImage).toBe(true);
  });

  it("renders no previews when the caller turns them off (Zulip's no_previews)", () => {
    const result = render(`see ${CAT}`, { previews: false });
    expect(result.html).toBe(`<p>see ${link(CAT)}</p>`);
    expect(result.hasImage).toBe(false);
  });

  it("links external images without any other URL in the markup (no proxy, nothing fetched)", () => {
    const { html } = render(`see ${CAT}`);
    const urls = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(urls)).toEqual(new Set([CAT]));
  });
});
