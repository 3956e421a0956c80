/**
 * The image previews of loaded messages, in feed order, for the lightbox
 * (https://zulip.com/help/view-images-and-videos): the server renders each
 * preview as `<div class="message_inline_image"><a href="…" title="…"><img … src="…"></a></div>`
 * (an upload's `src` is its thumbnail under `/user_uploads/thumbnail/`, an
 * external image's the server's image proxy).
 */
import type { Message } from "./types.js";

/** One image the lightbox can show. */
export interface LightboxImage {
  messageId: number;
  /** Its position among the previews of its message (0 first). */
  indexInMessage: number;
  /** The image at full size: the upload itself, or the proxied preview of an external image. */
  src: string;
  /** Where "Download" points: the upload served as a download, or the external link. */
  downloadUrl: string;
  /** The link's title (its Markdown text), else the file name from the URL. */
  name: string;
  senderName: string;
  /** UNIX seconds of the message. */
  timestamp: number;
}

const PREVIEW = /<div class="message_inline_image"><a href="([^"]*)"(?: title="([^"]*)")?><img [^>]*?\bsrc="([^"]*)"[^>]*><\/a><\/div>/g;

function unescapeAttr(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[name] ?? "");
}

/** The last path segment of a URL, decoded ("photo.png" of `/user_uploads/2/ab/x/photo.png`). */
export function fileNameOf(url: string): string {
  const last = url.split(/[?#]/, 1)[0]!.split("/").filter(Boolean).at(-1) ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The image previews of one message's HTML, in order. */
export function imagesOfMessage(m: Pick<Message, "id" | "content" | "sender_full_name" | "timestamp">): LightboxImage[] {
  const out: LightboxImage[] = [];
  for (const match of m.content.matchAll(PREVIEW)) {
    const href = unescapeAttr(match[1]!);
    const title = match[2] === undefined ? undefined : unescapeAttr(match[2]);
    const previewSrc = unescapeAttr(match[3]!);
    const upload = href.startsWith("/user_uploads/") && !href.startsWith("/user_uploads/thumbnail/");
    out.push({
      messageId: m.id,
      indexInMessage: out.length,
      src: upload ? href : previewSrc,
      downloadUrl: upload ? href.replace(/^\/user_uploads\//, "/user_uploads/download/") : href,
      name: title || fileNameOf(href),
      senderName: m.sender_full_name,
      timestamp: m.timestamp,
    });
  }
  return out;
}

/** Every image preview of the loaded messages of a view, oldest message first. */
export function imagesOfMessages(messages: readonly Message[]): LightboxImage[] {
  return messages.flatMap((m) => (m.content.includes("message_inline_image") ? imagesOfMessage(m) : []));
}
