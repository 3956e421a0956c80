import { faviconBadgeText } from "../../model/notify.js";

/** The plain icon's pixels (a rounded square in the app's accent colour), drawn once. */
const SIZE = 32;

/**
 * Draws the tab's icon with the unread count as a red badge
 * (https://zulip.com/help/desktop-notifications: the favicon shows unread
 * messages) on a canvas and sets it as the page's `<link rel="icon">`; the
 * plain icon at 0. Returns the badge text drawn ("" for none). Does nothing
 * where the browser has no 2D canvas (component tests).
 */
export function setFaviconCount(count: number, doc: Document = document): string {
  const text = faviconBadgeText(count);
  const canvas = doc.createElement("canvas");
  canvas.width = SIZE;
  canvas.height = SIZE;
  const g = canvas.getContext("2d");
  if (!g) return text;
  g.fillStyle = "#6492fe";
  g.beginPath();
  g.roundRect(2, 2, SIZE - 4, SIZE - 4, 7);
  g.fill();
  g.fillStyle = "#ffffff";
  g.font = "bold 18px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("Z", SIZE / 2, SIZE / 2 + 1);
  if (text) {
    const w = Math.max(16, 8 + text.length * 7);
    g.fillStyle = "#e0353b";
    g.beginPath();
    g.roundRect(SIZE - w, 0, w, 16, 8);
    g.fill();
    g.fillStyle = "#ffffff";
    g.font = "bold 12px sans-serif";
    g.fillText(text, SIZE - w / 2, 8.5);
  }
  let link = doc.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (!link) {
    link = doc.createElement("link");
    link.rel = "icon";
    doc.head.appendChild(link);
  }
  link.href = canvas.toDataURL("image/png");
  link.dataset.badge = text;
  return text;
}
