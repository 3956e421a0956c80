import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderLookups } from "./render.js";
import { replaceUploadPlaceholders, THUMBNAIL_PLACEHOLDER_SRC } from "./previews.js";
import type { UploadPreview } from "./types.js";

const CAT = "7/ab/x1/cat.png";
const GIF = "7/cd/y2/blink.gif";
const THUMB = `/user_uploads/thumbnail/${CAT}/840x560.webp`;

function lookups(uploads: Record<string, UploadPreview>): RenderLookups {
  return {
    users: [],
    groups: [],
    streams: [],
    realmEmoji: [],
    realmUrl: "https://chat.example.org",
    realmId: 7,
    uploadPreviews: new Map(Object.entries(uploads)),
  };
}

const placeholder = (href: string, dims: string, title = "") =>
  `<div class="message_inline_image"><a href="${href}"${title}><img class="image-loading-placeholder" data-original-dimensions="${dims}" src="${THUMBNAIL_PLACEHOLDER_SRC}"></a></div>`;

describe("previews of uploaded images", () => {
  it("shows the thumbnail of a thumbnailed upload, with data-animated for an animation", () => {
    const result = renderMarkdown(
      `[cat.png](/user_uploads/${CAT}) [blink](/user_uploads/${GIF})`,
      lookups({
        [CAT]: { width: 1200, height: 900, animated: false, thumbnailUrl: THUMB },
        [GIF]: { width: 10, height: 20, animated: true, thumbnailUrl: `/user_uploads/thumbnail/${GIF}/840x560-anim.webp` },
      }),
    );
    expect(result.html).toBe(
      `<p><a href="/user_uploads/${CAT}">cat.png</a> <a href="/user_uploads/${GIF}">blink</a></p>\n` +
        `<div class="message_inline_image"><a href="/user_uploads/${CAT}" title="cat.png"><img data-original-dimensions="1200x900" src="${THUMB}"></a></div>` +
        `<div class="message_inline_image"><a href="/user_uploads/${GIF}" title="blink"><img data-animated="true" data-original-dimensions="10x20" src="/user_uploads/thumbnail/${GIF}/840x560-anim.webp"></a></div>`,
    );
    expect(result.hasImage).toBe(true);
    expect(result.thumbnailPendingPathIds).toEqual([]);
  });

  it("shows a placeholder while the thumbnail is made, and reports the upload as pending", () => {
    const result = renderMarkdown(`[cat.png](/user_uploads/${CAT})`, lookups({ [CAT]: { width: 30, height: 20, animated: false } }));
    expect(result.html).toBe(`<p><a href="/user_uploads/${CAT}">cat.png</a></p>\n` + placeholder(`/user_uploads/${CAT}`, "30x20", ` title="cat.png"`));
    expect(result.thumbnailPendingPathIds).toEqual([CAT]);
  });

  it("gives an upload that is not an image no preview, whatever its name; without lookups the name decides", () => {
    const none = renderMarkdown(`[cat.png](/user_uploads/${CAT})`, lookups({}));
    expect(none.html).toBe(`<p><a href="/user_uploads/${CAT}">cat.png</a></p>`);
    expect(none.hasImage).toBe(false);
    const { uploadPreviews: _, ...noLookups } = lookups({});
    const byName = renderMarkdown(`[cat.png](/user_uploads/${CAT})`, noLookups);
    expect(byName.html).toContain(`<img src="/user_uploads/${CAT}">`);
  });

  it("replaces only the named upload's placeholders, or removes them", () => {
    const html = renderMarkdown(
      `/user_uploads/x [a](/user_uploads/${CAT})\n\n[b](/user_uploads/${GIF})`,
      lookups({ [CAT]: { width: 30, height: 20, animated: false }, [GIF]: { width: 4, height: 4, animated: true } }),
    ).html;
    const done = replaceUploadPlaceholders(html, CAT, { width: 30, height: 20, animated: false, thumbnailUrl: THUMB });
    expect(done).toBe(
      html.replace(placeholder(`/user_uploads/${CAT}`, "30x20", ` title="a"`), `<div class="message_inline_image"><a href="/user_uploads/${CAT}" title="a"><img data-original-dimensions="30x20" src="${THUMB}"></a></div>`),
    );
    expect(done).toContain(placeholder(`/user_uploads/${GIF}`, "4x4", ` title="b"`));
    expect(replaceUploadPlaceholders(done!, CAT, null)).toBeUndefined();
    const removed = replaceUploadPlaceholders(html, GIF, null);
    expect(removed).toBe(html.replace(placeholder(`/user_uploads/${GIF}`, "4x4", ` title="b"`), "").trim());
    expect(replaceUploadPlaceholders(html, "7/zz/none/x.png", null)).toBeUndefined();
  });

  it("never rewrites placeholder markup a user typed (it is escaped)", () => {
    const typed = placeholder(`/user_uploads/${CAT}`, "30x20");
    const html = renderMarkdown(typed, lookups({})).html;
    expect(replaceUploadPlaceholders(html, CAT, null)).toBeUndefined();
  });
});
