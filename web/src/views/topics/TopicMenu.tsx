import { createPortal } from "preact/compat";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ChatState } from "../../model/store.js";
import { matchContext } from "../../model/store.js";
import { isResolved, resolveParams, topicPermissions, VISIBILITY, type Actor } from "../../model/topics.js";
import { ROLE } from "../../model/roles.js";
import { ErrorNote } from "../ui/ErrorNote.js";
import { MenuList, useDismiss, type MenuItem } from "../ui/Popover.js";
import { useAction } from "../ui/useAction.js";
import { useChatUi } from "../people/context.js";
import { MoveTopicDialog } from "./MoveTopicDialog.js";

/** The reader as the permission checks take them (role, joining date in UNIX seconds). */
export function actorOf(state: ChatState): Actor {
  const me = state.users.get(state.me.user_id);
  return { role: me?.role ?? ROLE.member, dateJoinedSeconds: me ? Date.parse(me.date_joined) / 1000 : 0 };
}

/** The menu's items for a topic: the visibility pair, following, resolving, moving and renaming, marking read. */
function visibilityItems(streamMuted: boolean, policy: number, set: (policy: number) => void): MenuItem[] {
  const items: MenuItem[] = [];
  if (streamMuted) {
    const on = policy === VISIBILITY.unmuted || policy === VISIBILITY.followed;
    items.push(on ? { label: "Mute topic", onSelect: () => set(VISIBILITY.inherit) } : { label: "Unmute topic", onSelect: () => set(VISIBILITY.unmuted) });
  } else {
    items.push(policy === VISIBILITY.muted ? { label: "Unmute topic", onSelect: () => set(VISIBILITY.inherit) } : { label: "Mute topic", onSelect: () => set(VISIBILITY.muted) });
  }
  items.push(policy === VISIBILITY.followed ? { label: "Unfollow topic", onSelect: () => set(VISIBILITY.inherit) } : { label: "Follow topic", onSelect: () => set(VISIBILITY.followed) });
  return items;
}

/**
 * The "Topic actions" button and its menu, on a sidebar topic and on the
 * recipient header of stream messages (Zulip's topic menu): "Mark all as
 * read", "Mute topic"/"Unmute topic" and "Follow topic"/"Unfollow topic"
 * (`POST /user_topics`, https://zulip.com/help/mute-a-topic,
 * https://zulip.com/help/follow-a-topic), "Mark as resolved"/"Mark as
 * unresolved" (https://zulip.com/help/resolve-a-topic), "Move topic" and
 * "Rename topic" (a dialog) where the organization's policies let the reader;
 * otherwise the menu says why. `messageId` is a message of the topic (its
 * newest known), the one `PATCH /messages/{id}` names; `messageTimestamp`
 * (UNIX seconds) its time, for the time limits. A refused action keeps the
 * menu open with the server's message.
 */
export function TopicActions(props: { state: ChatState; streamId: number; topic: string; messageId: number; messageTimestamp?: number }) {
  const ui = useChatUi();
  const { state, streamId, topic } = props;
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<"move" | "rename" | null>(null);
  const [pos, setPos] = useState({ top: 0, left: 0 });
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useDismiss(open, menu, () => setOpen(false), button);
  const act = useAction(async (method: "POST" | "PATCH", path: string, params: Record<string, string | number | boolean>) => {
    await ui!.chat.api.call(method, path, params);
  });
  useLayoutEffect(() => {
    if (!open || !button.current) return;
    const r = button.current.getBoundingClientRect();
    const w = menu.current?.offsetWidth ?? 220;
    const h = menu.current?.offsetHeight ?? 280;
    setPos({ top: Math.max(8, Math.min(r.bottom + 2, window.innerHeight - h - 8)), left: Math.max(8, Math.min(r.right - w, window.innerWidth - w - 8)) });
    menu.current?.querySelector<HTMLElement>("[role=menuitem]:not([disabled])")?.focus();
  }, [open]);
  if (!ui) return null;

  const run = async (method: "POST" | "PATCH", path: string, params: Record<string, string | number | boolean>) => {
    if (await act.run(method, path, params)) setOpen(false);
  };
  const ctx = matchContext(state);
  const policy = ctx.topicPolicy(streamId, topic);
  const perms = topicPermissions(state.realmSettings, actorOf(state), Date.now() / 1000, props.messageTimestamp);
  const setPolicy = (visibility_policy: number) => void run("POST", "/user_topics", { stream_id: streamId, topic, visibility_policy });
  const items: MenuItem[] = [
    { label: "Mark all as read", onSelect: () => void run("POST", "/mark_topic_as_read", { stream_id: streamId, topic_name: topic }) },
    ...visibilityItems(ctx.isStreamMuted(streamId), policy, setPolicy),
  ];
  if (perms.rename === null) {
    const params = resolveParams(topic) as Record<string, string | boolean>;
    items.push({ label: isResolved(topic) ? "Mark as unresolved" : "Mark as resolved", onSelect: () => void run("PATCH", `/messages/${props.messageId}`, params) });
  }
  const openDialog = (kind: "move" | "rename") => {
    setOpen(false);
    setDialog(kind);
  };
  if (perms.move === null) items.push({ label: "Move topic", onSelect: () => openDialog("move") });
  if (perms.rename === null) items.push({ label: "Rename topic", onSelect: () => openDialog("rename") });
  const reason = perms.rename !== null && perms.move !== null ? perms.rename : null;

  return (
    <span class="topic-actions">
      <button
        ref={button}
        type="button"
        class="topic-actions-button"
        aria-label="Topic actions"
        title={`Actions for ${topic}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          act.clearError();
          setOpen(!open);
        }}
      >
        ⋮
      </button>
      {open &&
        createPortal(
          <div ref={menu} class="topic-menu" style={{ top: `${pos.top}px`, left: `${pos.left}px` }}>
            <MenuList label={`Actions for topic ${topic}`} items={items} onDone={() => undefined}>
              {reason && (
                <li role="none" class="menu-note">
                  {reason}
                </li>
              )}
            </MenuList>
            <ErrorNote error={act.error} />
          </div>,
          document.body,
        )}
      {dialog && (
        <MoveTopicDialog
          chat={ui.chat}
          state={state}
          streamId={streamId}
          topic={topic}
          messageId={props.messageId}
          mode={dialog}
          moveRefusal={perms.move}
          onClose={() => {
            setDialog(null);
            setOpen(false);
          }}
        />
      )}
    </span>
  );
}
