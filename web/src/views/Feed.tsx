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

/**
 * The message list of the open view, virtualized (only the rows near the
 * viewport are in the page; their heights are measured as they render).
 * Opening a view scrolls to its first unread message, or the newest.
 * Scrolling near the top fetches older messages and keeps the message at the
 * top of the viewport where it was (no jump); near the bottom, newer ones.
 */
export function Feed(props: FeedProps) {
  const { state, list, actions } = props;
  const items = shownMessages(list);
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ id: number; offset: number } | null>(null);
  const firstId = useRef<number | undefined>(undefined);
  const positionedFor = useRef<string | null>(null);
  const key = viewKey(props.view);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (i) => items[i]?.local_id ?? items[i]?.id ?? i,
  });

  /** Reports visible unread messages and remembers the top message for keeping position. */
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const rows = virtualizer.getVirtualItems().map((v) => ({
      id: items[v.index]?.id ?? -1,
      top: v.start,
      bottom: v.end,
      read: items[v.index]?.flags.includes("read") ?? true,
    }));
    const first = virtualizer.getVirtualItems().find((v) => v.end > top);
    if (first && items[first.index]) anchor.current = { id: items[first.index]!.id, offset: first.start - top };
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
    if (!list.loaded || positionedFor.current === key || items.length === 0) return;
    positionedFor.current = key;
    const idx = list.anchorId !== undefined ? items.findIndex((m) => m.id === list.anchorId) : -1;
    const firstUnread = idx >= 0 && !items[idx]!.flags.includes("read");
    if (firstUnread && idx > 0) virtualizer.scrollToIndex(idx, { align: "start" });
    else virtualizer.scrollToIndex(items.length - 1, { align: "end" });
    firstId.current = items[0]?.id;
  }, [key, list.loaded, items.length]);

  // Older messages prepended: put the remembered top message back at its offset.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const newFirst = items[0]?.id;
    const prepended = firstId.current !== undefined && newFirst !== undefined && newFirst < firstId.current;
    firstId.current = newFirst;
    if (!el || !prepended || !anchor.current) return;
    const idx = items.findIndex((m) => m.id === anchor.current!.id);
    const offset = idx >= 0 ? virtualizer.getOffsetForIndex(idx, "start")?.[0] : undefined;
    if (offset !== undefined) el.scrollTop = offset - anchor.current.offset;
  }, [items[0]?.id]);

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

  return (
    <section class="feed" aria-label="Messages" aria-busy={!list.loaded || props.loadingOlder}>
      {/* Outside the scrolled element: the virtual rows' offsets count from its top. */}
      <p class="feed-status" role="status">
        {props.loadingOlder ? "Loading older messages…" : list.loaded && list.foundOldest && items.length > 0 ? "This is the start of the conversation." : ""}
      </p>
      <div class="feed-scroll" ref={scrollRef} onScroll={onScroll} tabIndex={-1}>
        <div class="feed-rows" style={{ height: `${virtualizer.getTotalSize()}px`, position: "relative" }}>
          {virtualizer.getVirtualItems().map((v) => {
            const m = items[v.index]!;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                class="feed-row"
                style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${v.start}px)` }}
              >
                <MessageRow state={state} message={m} previous={items[v.index - 1]} selected={m.id === props.selectedId} actions={actions} />
              </div>
            );
          })}
        </div>
        {list.loaded && items.length === 0 && <p class="feed-empty">No messages here yet.</p>}
        {!list.loaded && <p class="feed-loading">Loading…</p>}
      </div>
    </section>
  );
}
