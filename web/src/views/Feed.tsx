import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import { shownMessages, type MessageList } from "../model/messages.js";
import { nearMessageId, viewKey, type View } from "../model/narrow.js";
import { visibleUnread } from "../model/read.js";
import { MessageRow, type MessageActions } from "./MessageRow.js";
import { anchorPart, anchorScrollTop, readAnchor, type ReadingAnchor } from "./readingAnchor.js";

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

/** The virtual list never moves the scroll position itself when a row's measured size changes: the reading anchor does. */
const neverAdjust = () => false;

/**
 * The message list of the open view (`section.feed`, the scroll container),
 * virtualized (only the rows near the viewport are in the page; their heights
 * are measured as they render). Opening a view scrolls to its first unread
 * message, or the newest. Scrolling near the top fetches older messages; near
 * the bottom, newer ones.
 *
 * The reader's place is kept as a {@link ReadingAnchor}: the message at the
 * top of the viewport and its offset, or the bottom of a list that holds the
 * newest messages. A scroll that is not ours (wheel, touch, keys, scrollbar,
 * a script) moves the anchor; anything else that changes the layout (older
 * messages prepended, a row measured, a row losing its recipient header, a
 * message arriving) is followed, after every render and before the browser
 * paints, by putting the anchor back. So the view does not jump however many
 * frames the measurements take.
 */
export function Feed(props: FeedProps) {
  const { state, list, actions } = props;
  const items = shownMessages(list);
  const scrollRef = useRef<HTMLElement>(null);
  const anchor = useRef<ReadingAnchor | null>(null);
  /** `scrollTop` after our last write or as the last scroll event found it: any other value means someone else scrolled. */
  const known = useRef<number | null>(null);
  const lastId = useRef<number | string | undefined>(undefined);
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
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = neverAdjust;

  /** Reads the reader's place from the page (none while no message is in the viewport: read again after the next render). */
  const capture = (el: HTMLElement) => {
    anchor.current = readAnchor(el, list.foundNewest, STICK_MARGIN_PX);
    known.current = el.scrollTop;
  };

  /** Puts the anchor back where it was (or, after someone else's scroll, reads the new one). */
  const restore = () => {
    const el = scrollRef.current;
    if (!el) return;
    const saved = anchor.current;
    if (!saved || (known.current !== null && Math.abs(el.scrollTop - known.current) >= 1)) {
      if (positionedFor.current === key) capture(el);
      return;
    }
    const target = anchorScrollTop(el, saved, (id) => {
      const idx = items.findIndex((m) => m.id === id);
      return idx >= 0 ? virtualizer.measurementsCache[idx]?.start : undefined;
    });
    if (target !== undefined && Math.abs(target - el.scrollTop) >= 1) {
      el.scrollTop = target;
      known.current = el.scrollTop;
      // The virtual list learns the new offset from its scroll listener: tell it now, so the rows
      // there render before this frame is painted rather than after the browser's scroll event.
      el.dispatchEvent(new Event("scroll"));
    }
    known.current = el.scrollTop;
    // The bottom of a list without the newest messages is no place to stay: messages fetched
    // below would pull the reader along. Read a message anchor once rows are there.
    if (saved.kind === "bottom" && !list.foundNewest) anchor.current = null;
  };
  const restoreRef = useRef(restore);
  restoreRef.current = restore;

  /** Reports visible unread messages, follows the reader's scrolling and fetches more near either end. */
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (positionedFor.current === key && (known.current === null || Math.abs(el.scrollTop - known.current) >= 1)) capture(el);
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const rows = virtualizer.getVirtualItems().map((v) => ({
      id: items[v.index]?.id ?? -1,
      top: v.start,
      bottom: v.end,
      read: items[v.index]?.flags.includes("read") ?? true,
    }));
    if (typeof document !== "undefined" && document.hasFocus() && !document.hidden) {
      const ids = visibleUnread(rows, top, bottom).filter((id) => Number.isInteger(id));
      if (ids.length > 0) actions.seen(ids);
    }
    if (!list.loaded) return;
    if (top < LOAD_MARGIN_PX && !list.foundOldest && !props.loadingOlder) actions.loadOlder();
    if (el.scrollHeight - bottom < LOAD_MARGIN_PX && !list.foundNewest && !props.loadingNewer) actions.loadNewer();
  }, [items, list, props.loadingOlder, props.loadingNewer, key]);

  // Opening a view: its first unread message at the top, or the newest at the bottom.
  useLayoutEffect(() => {
    if (positionedFor.current === key) return;
    anchor.current = null;
    if (!list.loaded) return;
    if (items.length === 0) {
      markFeedPainted(scrollRef.current, null);
      return;
    }
    positionedFor.current = key;
    const idx = list.anchorId !== undefined ? items.findIndex((m) => m.id === list.anchorId) : -1;
    // A link to a message (`near`) opens at that message, as at a first unread one.
    const firstUnread = idx > 0 && (!items[idx]!.flags.includes("read") || items[idx]!.id === nearMessageId(props.view));
    anchor.current = firstUnread ? { kind: "message", id: items[idx]!.id, top: 0, part: "row" } : { kind: "bottom" };
    known.current = scrollRef.current?.scrollTop ?? null;
    lastId.current = items.at(-1)?.local_id ?? items.at(-1)?.id;
    markFeedPainted(scrollRef.current, firstUnread ? idx : items.length - 1);
  }, [key, list.loaded, items.length]);

  // The reader's own message appears at the end: show it (a reader at the bottom stays there anyway).
  const newest = items.at(-1);
  useLayoutEffect(() => {
    const id = newest?.local_id ?? newest?.id;
    const appended = positionedFor.current === key && id !== undefined && id !== lastId.current;
    lastId.current = id;
    if (appended && list.foundNewest && newest?.local_id) anchor.current = { kind: "bottom" };
  }, [newest?.local_id ?? newest?.id]);

  // j/k selection follows into view: the selected message at the top when it is above the
  // viewport (with its row's header), at the bottom when below.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const id = props.selectedId;
    if (!el || id === undefined || positionedFor.current !== key) return;
    const idx = items.findIndex((m) => m.id === id);
    if (idx < 0) return;
    const view = el.getBoundingClientRect();
    const node = el.querySelector<HTMLElement>(`.message-row[data-message-id="${id}"]`);
    const box = node?.getBoundingClientRect();
    if (box && box.top >= view.top && box.bottom <= view.bottom) return;
    const current = anchor.current;
    const above = box ? box.top < view.top : current?.kind === "message" && idx < items.findIndex((m) => m.id === current.id);
    // The anchor holds the message's text: above, its row (header and all) starts at the top; below, the message ends at the bottom.
    const text = node ? anchorPart(node).getBoundingClientRect().top : 0;
    const rowTop = node?.closest(".feed-row")?.getBoundingClientRect().top ?? text;
    const top = above ? text - rowTop : Math.max(0, el.clientHeight - (box ? box.bottom - text : el.clientHeight / 2));
    anchor.current = { kind: "message", id, top };
    known.current = el.scrollTop;
  }, [props.selectedId]);

  // After every render (rows added, measured, re-rendered): the reader's place back where it was.
  useLayoutEffect(() => restore());

  // The feed itself resized (the window, the compose box): keep the place too.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => restoreRef.current());
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

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
