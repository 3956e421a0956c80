import { describe, expect, it } from "vitest";
import { fileNameOf, imagesOfMessage, imagesOfMessages } from "./images.js";
import type { Message } from "./types.js";

const upload = (path: string, title?: string) =>
  `<div class="message_inline_image"><a href="/user_uploads/${path}"${title ? ` title="${title}"` : ""}>` +
  `<img data-original-dimensions="10x10" src="/user_uploads/thumbnail/${path}/840x560.webp"></a></div>`;

function message(id: number, content: string): Message {
  return { id, content, sender_full_name: `Sender ${id}`, timestamp: 1_700_000_000 + id } as Message;
}

describe("imagesOfMessage", () => {
  it("finds an upload's preview: the full image, its download link and its name", () => {
    const [img] = imagesOfMessage(message(7, `<p><a href="/user_uploads/2/ab/x/cat%20one.png">cat one.png</a></p>${upload("2/ab/x/cat%20one.png", "cat one.png")}`));
    expect(img).toEqual({
      messageId: 7,
      indexInMessage: 0,
      src: "/user_uploads/2/ab/x/cat%20one.png",
      downloadUrl: "/user_uploads/download/2/ab/x/cat%20one.png",
      name: "cat one.png",
      senderName: "Sender 7",
      timestamp: 1_700_000_007,
    });
  });

  it("names an untitled preview by its file name and shows an external image through its proxied src", () => {
    const html =
      upload("2/cd/y/dog.jpg") +
      '<div class="message_inline_image"><a href="https://example.com/a&amp;b.png"><img src="/external_content/abc/def"></a></div>';
    const images = imagesOfMessage(message(8, html));
    expect(images.map((i) => [i.indexInMessage, i.name, i.src, i.downloadUrl])).toEqual([
      [0, "dog.jpg", "/user_uploads/2/cd/y/dog.jpg", "/user_uploads/download/2/cd/y/dog.jpg"],
      [1, "a&b.png", "/external_content/abc/def", "https://example.com/a&b.png"],
    ]);
  });

  it("also finds a preview whose thumbnail is still being made (a placeholder image)", () => {
    const html =
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/z/p.png">' +
      '<img class="image-loading-placeholder" data-original-dimensions="4x4" src="/static/images/loading/loader-black.svg"></a></div>';
    expect(imagesOfMessage(message(9, html)).map((i) => i.src)).toEqual(["/user_uploads/2/ab/z/p.png"]);
  });
});

describe("imagesOfMessages", () => {
  it("lists the images of the loaded messages in order, skipping messages without any", () => {
    const list = imagesOfMessages([message(1, upload("2/a/1/a.png") + upload("2/a/2/b.png")), message(2, "<p>text</p>"), message(3, upload("2/a/3/c.png"))]);
    expect(list.map((i) => [i.messageId, i.name])).toEqual([
      [1, "a.png"],
      [1, "b.png"],
      [3, "c.png"],
    ]);
  });
  it("decodes a URL's last segment as the file name", () => {
    expect(fileNameOf("/user_uploads/2/ab/x/na%C3%AFve.png?x=1")).toBe("naïve.png");
  });
});
