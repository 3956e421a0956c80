import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import { composeListOf, type ComposeList } from "../../model/compose-lists.js";
import { draftTarget, DraftSync, type Draft } from "../../model/drafts.js";
import { dmHash, streamHash } from "../../model/narrow.js";
import { scheduledTarget, scheduleParams, type ScheduledMessage } from "../../model/scheduled.js";
import type { ChatState } from "../../model/store.js";
import { whenText } from "../drafts/recipient.js";
import { DraftsList } from "../drafts/DraftsList.js";
import { ScheduledList } from "../scheduled/ScheduledList.js";
import type { ComposeTarget } from "./types.js";
import "../../styles/compose-extras.css";

/** The list the hash opens (`#drafts`, `#scheduled`) and the chat hash to go back to. */
function useComposeListHash(): { list: ComposeList | null; close(): void } {
  const [list, setList] = useState(() => composeListOf(location.hash));
  const back = useRef(composeListOf(location.hash) ? "#feed" : location.hash || "#feed");
  useEffect(() => {
    const onHash = () => {
      const next = composeListOf(location.hash);
      setList(next);
      if (!next && !/^#(settings|organization|channels|streams)(\/|$)/.test(location.hash)) back.current = location.hash || "#feed";
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  return { list, close: () => (location.hash = back.current) };
}

/** What the chat screen gets: the compose box's extra props, its send and close hooks, and the open list. */
export interface ComposeExtras {
  compose: {
    drafts: DraftSync;
    load?: { seq: number; target: ComposeTarget; content: string };
    onSchedule(target: ComposeTarget, content: string, timestamp: number): Promise<void>;
    sendLabel?: string;
    banner?: ComponentChildren;
    twentyFourHour: boolean;
  };
  /** Sends in place of a new message while a scheduled message is being edited (`PATCH`); null otherwise. */
  send(target: ComposeTarget, content: string): Promise<void> | null;
  /** The compose box closed. */
  closed(): void;
  /** A list covers the chat (its keyboard shortcuts are off). */
  listOpen: boolean;
  /** The open list, or null. */
  overlay: ComponentChildren;
}

/**
 * Scheduled messages and drafts around the compose box
 * (https://zulip.com/help/schedule-a-message,
 * https://zulip.com/help/view-and-edit-your-message-drafts): the draft
 * writer, "Schedule message" (`POST /scheduled_messages`), editing a
 * scheduled message in the box (saving `PATCH`es it), the notice after
 * scheduling, and the `#drafts` and `#scheduled` lists, whose "Restore" and
 * "Edit" open the message's conversation with the text in the box.
 * @param openCompose opens the compose box for a kind of message and a target
 */
export function useComposeExtras(chat: Chat, state: ChatState, openCompose: (kind: "stream" | "private", target: ComposeTarget) => void): ComposeExtras {
  const drafts = useMemo(
    () =>
      new DraftSync({
        call: (method, path, params) => chat.api.call(method, path, params),
        drafts: () => chat.snapshot.state?.drafts ?? new Map(),
        myUserId: () => chat.snapshot.state?.me.user_id ?? 0,
        enabled: () => chat.snapshot.state?.userSettings.enable_drafts_synchronization !== false,
        setTimer: (fn, ms) => setTimeout(fn, ms),
        clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
        nowSeconds: () => Math.floor(Date.now() / 1000),
      }),
    [chat],
  );
  // Text typed just before the page goes away is still saved.
  useEffect(() => {
    const onHide = () => void drafts.flush();
    window.addEventListener("pagehide", onHide);
    return () => window.removeEventListener("pagehide", onHide);
  }, [drafts]);

  const { list, close } = useComposeListHash();
  const [load, setLoad] = useState<{ seq: number; target: ComposeTarget; content: string } | undefined>(undefined);
  const [editing, setEditing] = useState<ScheduledMessage | null>(null);
  const [notice, setNotice] = useState<number | null>(null);
  const twentyFourHour = state.settings.twenty_four_hour_time;

  const nameOf = (id: number) => state.users.get(id)?.full_name;
  const put = (target: ComposeTarget, content: string) => {
    location.hash =
      target.type === "stream" ? streamHash(target.stream_id, state.streams.get(target.stream_id)?.name ?? "", target.topic) : dmHash(target.user_ids, nameOf);
    openCompose(target.type, target);
    setLoad((l) => ({ seq: (l?.seq ?? 0) + 1, target, content }));
  };
  const restore = (d: Draft) => {
    const target = draftTarget(d);
    if (!target) return;
    drafts.adopt(d.id);
    setEditing(null);
    put(target, d.content);
  };
  const edit = (m: ScheduledMessage) => {
    setEditing(m);
    setNotice(null);
    put(scheduledTarget(m), m.content);
  };
  const stopEditing = () => {
    if (!editing) return;
    setEditing(null);
    setLoad((l) => ({ seq: (l?.seq ?? 0) + 1, target: scheduledTarget(editing), content: "" }));
  };

  const banner = editing ? (
    <div class="compose-banner" role="status">
      <span>Editing the message scheduled for {whenText(editing.scheduled_delivery_timestamp, twentyFourHour)}.</span>
      <button type="button" onClick={stopEditing}>
        Cancel editing
      </button>
    </div>
  ) : notice !== null ? (
    <div class="compose-banner" role="status">
      <span>Your message has been scheduled for {whenText(notice, twentyFourHour)}.</span> <a href="#scheduled">View scheduled messages</a>
      <button type="button" aria-label="Dismiss" onClick={() => setNotice(null)}>
        ×
      </button>
    </div>
  ) : undefined;

  const title = list === "drafts" ? "Drafts" : "Scheduled messages";
  const overlay = list ? (
    <ListOverlay title={title} onClose={close}>
      {list === "drafts" ? (
        <DraftsList state={state} drafts={drafts} onRestore={restore} />
      ) : (
        <ScheduledList chat={chat} state={state} onEdit={edit} />
      )}
    </ListOverlay>
  ) : null;

  return {
    compose: {
      drafts,
      load,
      twentyFourHour,
      sendLabel: editing ? "Save scheduled message" : undefined,
      banner,
      onSchedule: async (target, content, timestamp) => {
        if (editing) {
          await chat.api.call("PATCH", `/scheduled_messages/${editing.scheduled_message_id}`, scheduleParams(target, content, timestamp));
          setEditing(null);
        } else await chat.api.call("POST", "/scheduled_messages", scheduleParams(target, content, timestamp));
        setNotice(timestamp);
      },
    },
    send: (target, content) => {
      if (!editing) return null;
      const id = editing.scheduled_message_id;
      return chat.api.call("PATCH", `/scheduled_messages/${id}`, scheduleParams(target, content)).then(() => {
        setEditing(null);
        setNotice(editing.scheduled_delivery_timestamp);
      });
    },
    closed: () => setEditing(null),
    listOpen: list !== null,
    overlay,
  };
}

/** A list above the chat (a region named by its title) with "Close"; Esc closes it too. */
function ListOverlay(props: { title: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("h1")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
      e.stopPropagation();
      onClose.current();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, []);
  return (
    <section class="list-overlay" aria-label={props.title} ref={ref}>
      <header class="list-overlay-header">
        <h1 tabIndex={-1}>{props.title}</h1>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </header>
      {props.children}
    </section>
  );
}
