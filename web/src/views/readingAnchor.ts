/**
 * Where the reader of the feed is, in terms that survive rows being added,
 * removed or measured: a message's text (`.message-content`: not the date
 * line, the recipient header or the sender's name above it, which come and go
 * with what is loaded before the message) at an offset from the top of the
 * scroll container's viewport (pixels), or the bottom of the feed. With
 * `part: "row"` the offset is the top of the message's row (its date line and
 * header included), for opening a view at a message.
 */
export type ReadingAnchor = { kind: "bottom" } | { kind: "message"; id: number; top: number; part?: "text" | "row" };

/** The part of a message element (`article.message-row`) an anchor holds in place: its text, or the whole message. */
export function anchorPart(message: HTMLElement): HTMLElement {
  return message.querySelector<HTMLElement>(".message-content") ?? message;
}

/** Where message `id`'s text (or its row) is from the top of the scroll container's viewport (pixels), if it is rendered. */
export function messageTop(el: HTMLElement, id: number, part: "text" | "row" = "text"): number | undefined {
  const node = el.querySelector<HTMLElement>(`.message-row[data-message-id="${id}"]`);
  if (!node) return undefined;
  const at = part === "row" ? (node.closest(".feed-row") ?? node) : anchorPart(node);
  return at.getBoundingClientRect().top - el.getBoundingClientRect().top;
}

/**
 * The reader's place read from the page: the bottom when the viewport ends
 * within `stickPx` pixels of the content's end and `sticky` (the list holds
 * the newest messages), otherwise the first message whose element reaches
 * into the viewport, with the offset of its text from the viewport's top (negative when
 * it starts above). Null when no rendered message is in the viewport (the
 * rows there are not rendered yet).
 */
export function readAnchor(el: HTMLElement, sticky: boolean, stickPx: number): ReadingAnchor | null {
  if (sticky && el.scrollHeight - el.scrollTop - el.clientHeight < stickPx) return { kind: "bottom" };
  const { top, bottom } = el.getBoundingClientRect();
  let best: { kind: "message"; id: number; top: number; first: number } | null = null;
  for (const node of el.querySelectorAll<HTMLElement>(".message-row[data-message-id]")) {
    const box = node.getBoundingClientRect();
    const id = Number(node.dataset.messageId);
    if (box.bottom <= top || box.top >= bottom || !Number.isInteger(id) || (best && box.top - top >= best.first)) continue;
    best = { kind: "message", id, first: box.top - top, top: anchorPart(node).getBoundingClientRect().top - top };
  }
  return best && { kind: "message", id: best.id, top: best.top };
}

/**
 * The `scrollTop` that puts `anchor` back in place: for a rendered message,
 * from where its element is now; for one not rendered, from `rowStart` (its
 * row's start in the virtual layout, pixels, where the row's date line and
 * header make the estimate a little off until the row renders); for the
 * bottom, the largest scroll offset. Undefined when the message is not in
 * the list.
 */
export function anchorScrollTop(el: HTMLElement, anchor: ReadingAnchor, rowStart: (id: number) => number | undefined): number | undefined {
  if (anchor.kind === "bottom") return Math.max(0, el.scrollHeight - el.clientHeight);
  const now = messageTop(el, anchor.id, anchor.part);
  if (now !== undefined) return el.scrollTop + now - anchor.top;
  const start = rowStart(anchor.id);
  return start === undefined ? undefined : start - anchor.top;
}
