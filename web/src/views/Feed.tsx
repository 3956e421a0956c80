import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import { shownMessages, type MessageList } from "../model/messages.js";
import { viewKey, type View } from "../model/narrow.js";
import { visibleUnread } from "../model/read.js";
import { MessageRow, type MessageActions } from "./MessageRow.js";

/** How close to the top (pixels) scrolling must come before older messages are fetched. */
const LOAD_MARGIN_PX = 600;

/** Props of {@link Feed}. */
export interface FeedProps {
  state: ChatState;
  view: View;
  list: MessageList;
  loadingOlder: boolean;
  loadingNewer: boolean;
  selectedId: number | undefined;
  actions: MessageActions & {
    loadOlder(): void;
    loadNewer(): void;
    /** Unread message IDs shown in the viewport while the window has focus. */
    seen(ids: number[]): void;
  };
}

/** The room above the first row for the "loading older" / "start of the conversation" line (pixels). */
const STATUS_SLOT_PX = 36;

/** For how many frames a page of older messages holds the top message in place while rows are measured. */
const PIN_FRAMES = 20;

/** How close to the bottom (pixels) counts as "at the bottom": new messages then keep the feed at the bottom. */
const STICK_MARGIN_PX = 48;

/** Whether `feed-painted` was marked (once per page load). */
let feedPaintedMarked = false;

/**
 * Marks `performance.mark("feed-painted")` for the load benchmark, once per
 * page load: when the first view opened shows the rows it opens at (its
 * newest messages, or its first unread) — or says it has none. The mark is
 * made inside a `requestAnimationFrame` callback run once the row is in the
 * DOM, that is just before the browser paints the frame that shows it; until
 * the row is there (the virtual list renders it after the scroll), it looks
 * again on the next frame, for at most 60 frames.
 */
function markFeedPainted(root: HTMLElement | null, index: number | null): void {
  if (feedPaintedMarked || typeof performance === "undefined" || typeof requestAnimationFrame === "undefined") return;
  feedPaintedMarked = true;
  let frames = 0;
  const look = () => {
    const shown = index === null ? root?.querySelector(".feed-empty") : root?.querySelector(`[data-index="${index}"]`);
    if (shown || ++frames >= 60) performance.mark("feed-painted");
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** Where message `id`'s element is from the top of the scroll container's viewport (pixels), if it is rendered. */
function messageOffset(el: HTMLElement, id: number): number | undefined {
  const node = el.querySelector(`.message-row[data-message-id="${id}"]`);
  return node ? node.getBoundingClientRect().top - el.getBoundingClientRect().top : undefined;
}

/** The top message in view: its ID, its virtual row's offset and its own offset from the viewport's top (pixels). */
interface Anchor {
  id: number;
  offset: number;
  dom: number;
}

/** Finds the first message whose element reaches into the viewport (read from the page, not the virtual range, which may lag a scroll event). */
function topMessage(el: HTMLElement): Anchor | null {
  const top = el.getBoundingClientRect().top;
  let best: Anchor | null = null;
  for (const node of el.querySelectorAll<HTMLElement>(".message-row[data-message-id]")) {
    const box = node.getBoundingClientRect();
    if (box.bottom <= top || (best && box.top - top >= best.dom)) continue;
    const row = node.closest(".feed-row")?.getBoundingClientRect().top ?? box.top;
    const id = Number(node.dataset.messageId);
    if (Number.isInteger(id)) best = { id, offset: row - top, dom: box.top - top };
  }
  return best;
}

/**
 * The message list of the open view (`section.feed`, the scroll container),
 * virtualized (only the rows near the viewport are in the page; their heights
 * are measured as they render). Opening a view scrolls to its first unread
 * message, or the newest. Scrolling near the top fetches older messages and
 * keeps the message at the top of the viewport where it was (no jump); near
 * the bottom, newer ones. A reader at the bottom stays there as messages arrive.
 */
export function Feed(props: FeedProps) {
  const { state, list, actions } = props;
  const items = shownMessages(list);
  const scrollRef = useRef<HTMLElement>(null);
  const anchor = useRef<Anchor | null>(null);
  const firstId = useRef<number | undefined>(undefined);
  const lastId = useRef<number | string | undefined>(undefined);
  const atBottom = useRef(true);
  const positionedFor = useRef<string | null>(null);
  const key = viewKey(props.view);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 8,
    paddingStart: STATUS_SLOT_PX,
    getItemKey: (i) => items[i]?.local_id ?? items[i]?.id ?? i,
  });

  /** Reports visible unread messages, remembers the top message (for keeping position) and whether the reader is at the bottom. */
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    atBottom.current = el.scrollHeight - bottom < STICK_MARGIN_PX;
    const rows = virtualizer.getVirtualItems().map((v) => ({
      id: items[v.index]?.id ?? -1,
      top: v.start,
      bottom: v.end,
      read: items[v.index]?.flags.includes("read") ?? true,
    }));
    anchor.current = topMessage(el) ?? anchor.current;
    if (typeof document !== "undefined" && document.hasFocus() && !document.hidden) {
      const ids = visibleUnread(rows, top, bottom).filter((id) => Number.isInteger(id));
      if (ids.length > 0) actions.seen(ids);
    }
    if (!list.loaded) return;
    if (top < LOAD_MARGIN_PX && !list.foundOldest && !props.loadingOlder) actions.loadOlder();
    if (el.scrollHeight - bottom < LOAD_MARGIN_PX && !list.foundNewest && !props.loadingNewer) actions.loadNewer();
  }, [items, list, props.loadingOlder, props.loadingNewer]);

  // Opening a view: scroll to the first unread message (at the top) or to the newest (at the bottom).
  useLayoutEffect(() => {
    if (!list.loaded || positionedFor.current === key) return;
    if (items.length === 0) {
      markFeedPainted(scrollRef.current, null);
      return;
    }
    positionedFor.current = key;
    const idx = list.anchorId !== undefined ? items.findIndex((m) => m.id === list.anchorId) : -1;
    const firstUnread = idx >= 0 && !items[idx]!.flags.includes("read");
    const target = firstUnread && idx > 0 ? idx : items.length - 1;
    if (target === idx) virtualizer.scrollToIndex(idx, { align: "start" });
    else virtualizer.scrollToIndex(target, { align: "end" });
    atBottom.current = target === items.length - 1;
    firstId.current = items[0]?.id;
    lastId.current = items.at(-1)?.local_id ?? items.at(-1)?.id;
    markFeedPainted(scrollRef.current, target);
  }, [key, list.loaded, items.length]);

  // Older messages prepended: put the remembered top message back where it was. First by the
  // virtual offsets (new rows at their estimated height), then, once the rows near it are
  // rendered and measured, by the message's own place in the page: its row may have lost its
  // date line and recipient header, now that the message before it is in the same conversation.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const newFirst = items[0]?.id;
    const prepended = firstId.current !== undefined && newFirst !== undefined && newFirst < firstId.current;
    firstId.current = newFirst;
    const saved = anchor.current;
    if (!el || !prepended || !saved) return;
    const idx = items.findIndex((m) => m.id === saved.id);
    const offset = idx >= 0 ? virtualizer.getOffsetForIndex(idx, "start")?.[0] : undefined;
    if (offset !== undefined) el.scrollTop = offset - saved.offset;
    // Measurements land over a few frames (each may move rows): hold the message in place for
    // up to PIN_FRAMES frames, unless the reader scrolls meanwhile.
    let pinned = true;
    const release = () => (pinned = false);
    const inputs = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
    for (const type of inputs) el.addEventListener(type, release, { once: true, passive: true });
    const settle = (framesLeft: number) => {
      const now = pinned ? messageOffset(el, saved.id) : undefined;
      if (now !== undefined && Math.abs(now - saved.dom!) >= 1) el.scrollTop += now - saved.dom;
      if (pinned && framesLeft > 0) requestAnimationFrame(() => settle(framesLeft - 1));
      else for (const type of inputs) el.removeEventListener(type, release);
    };
    requestAnimationFrame(() => settle(PIN_FRAMES));
  }, [items[0]?.id]);

  // A message arrives at the end: a reader at the bottom (or the sender of it) stays at the bottom.
  const newest = items.at(-1);
  useLayoutEffect(() => {
    const id = newest?.local_id ?? newest?.id;
    const appended = positionedFor.current === key && id !== undefined && id !== lastId.current;
    lastId.current = id;
    if (!appended || !list.foundNewest) return;
    if (atBottom.current || newest?.local_id) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
  }, [newest?.local_id ?? newest?.id]);

  // A short list that does not fill the viewport: fetch more at once, and report what is visible.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && list.loaded && el.scrollHeight <= el.clientHeight + LOAD_MARGIN_PX) onScroll();
  }, [list, onScroll]);

  // The reader comes back to the window: what is on screen now counts as seen.
  useEffect(() => {
    window.addEventListener("focus", onScroll);
    return () => window.removeEventListener("focus", onScroll);
  }, [onScroll]);

  // j/k selection follows into view.
  useEffect(() => {
    if (props.selectedId === undefined) return;
    const idx = items.findIndex((m) => m.id === props.selectedId);
    if (idx >= 0) virtualizer.scrollToIndex(idx, { align: "auto" });
  }, [props.selectedId]);

  const status = props.loadingOlder
    ? "Loading older messages…"
    : list.loaded && list.foundOldest && items.length > 0
      ? "This is the start of the conversation."
      : "";
  return (
    <section class="feed" aria-label="Messages" aria-busy={!list.loaded || props.loadingOlder} ref={scrollRef} onScroll={onScroll} tabIndex={-1}>
      <div class="feed-rows" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <p class="feed-status" role="status">
          {status}
        </p>
        {virtualizer.getVirtualItems().map((v) => {
          const m = items[v.index]!;
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} class="feed-row" style={{ transform: `translateY(${v.start}px)` }}>
              <MessageRow state={state} message={m} previous={items[v.index - 1]} selected={m.id === props.selectedId} actions={actions} />
            </div>
          );
        })}
      </div>
      {list.loaded && items.length === 0 && <p class="feed-empty">No messages here yet.</p>}
      {!list.loaded && <p class="feed-loading">Loading…</p>}
    </section>
  );
}
