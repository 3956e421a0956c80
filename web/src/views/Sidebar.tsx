import { useEffect, useMemo } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import { dmHash, narrowDmUsers, narrowStreamTopic, streamHash, type View } from "../model/narrow.js";
import { matchContext } from "../model/store.js";
import { RESOLVED_TOPIC_PREFIX } from "../model/types.js";
import { topicKey, unreadCounts } from "../model/unread.js";

/** An unread count beside a link (outside it, so the link's accessible name is its text alone). */
export function UnreadCount(props: { count: number | undefined }) {
  if (!props.count) return null;
  return (
    <span class="unread-count" aria-label={`${props.count} unread`}>
      {props.count}
    </span>
  );
}

/** The names of a conversation's people, for links and headers. */
export function conversationName(state: ChatState, key: string): string {
  return key
    .split(",")
    .map((id) => state.users.get(Number(id))?.full_name ?? `User ${id}`)
    .join(", ");
}

/**
 * The left sidebar (Zulip's left sidebar): the views (combined feed, inbox,
 * mentions, starred), the subscribed streams (pinned first, then by name;
 * unread counts; muted ones dimmed), the open stream's topics newest first,
 * and direct-message conversations. Props: the state, the open view, and
 * `loadTopics(streamId)` called when a stream opens.
 */
export function Sidebar(props: { state: ChatState; view: View; loadTopics(streamId: number): void }) {
  const { state, view } = props;
  const counts = useMemo(() => unreadCounts(state.unread, matchContext(state)), [state.unread, state.subscriptions, state.userTopics]);
  const terms = view.kind === "narrow" ? view.terms : [];
  const open = narrowStreamTopic(terms);
  const openDm = narrowDmUsers(terms);
  const isOnly = (what: string) => terms.length === 1 && terms[0]!.operator === "is" && terms[0]!.operand === what;

  useEffect(() => {
    if (open && !state.topics.has(open.streamId)) props.loadTopics(open.streamId);
  }, [open?.streamId, open ? state.topics.has(open.streamId) : true]);

  const subs = [...state.subscriptions.values()].sort(
    (a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name),
  );
  const conversations = new Map(state.recentConversations);
  for (const key of counts.byConversation.keys()) if (!conversations.has(key)) conversations.set(key, 0);
  const dms = [...conversations].sort((a, b) => b[1] - a[1]).slice(0, 20);

  const viewLink = (label: string, href: string, current: boolean, count?: number, cls = "") => (
    <li class={`sidebar-view ${cls} ${current ? "active" : ""}`}>
      <a href={href} aria-current={current ? "page" : undefined}>
        {label}
      </a>
      <UnreadCount count={count} />
    </li>
  );

  return (
    <nav class="sidebar" aria-label="Channels and conversations">
      <ul class="sidebar-views">
        {viewLink("Combined feed", "#feed", view.kind === "feed", counts.total, "combined-feed")}
        {viewLink("Inbox", "#inbox", view.kind === "inbox", undefined, "inbox")}
        {viewLink("Mentions", "#narrow/is/mentioned", isOnly("mentioned"), counts.mentions, "mentions")}
        {viewLink("Starred messages", "#narrow/is/starred", isOnly("starred"), state.starred.size || undefined, "starred")}
      </ul>
      <h2 class="sidebar-heading">Channels</h2>
      <ul class="stream-list">
        {subs.map((sub) => {
          const current = open?.streamId === sub.stream_id;
          return (
            <li
              key={sub.stream_id}
              class={`stream-item ${sub.is_muted ? "muted" : ""} ${sub.pin_to_top ? "pinned" : ""} ${current ? "active" : ""}`}
            >
              <span class="stream-swatch" style={{ backgroundColor: sub.color }} aria-hidden="true">
                {sub.invite_only ? "🔒" : "#"}
              </span>
              <a href={streamHash(sub.stream_id, sub.name)} aria-current={current && !open?.topic ? "page" : undefined}>
                {sub.name}
              </a>
              <UnreadCount count={counts.byStream.get(sub.stream_id)} />
              {current && (
                <TopicList state={state} streamId={sub.stream_id} streamName={sub.name} openTopic={open?.topic} byTopic={counts.byTopic} />
              )}
            </li>
          );
        })}
      </ul>
      <h2 class="sidebar-heading">Direct messages</h2>
      <ul class="dm-list">
        {dms.map(([key]) => {
          const ids = key.split(",").map(Number);
          const current = openDm !== undefined && [...openDm].sort((a, b) => a - b).join(",") === key;
          return (
            <li key={key} class={`dm-item ${current ? "active" : ""}`}>
              {ids.length === 1 && <PresenceDot state={state} userId={ids[0]!} />}
              <a href={dmHash(ids, (id) => state.users.get(id)?.full_name)} aria-current={current ? "page" : undefined}>
                {conversationName(state, key)}
              </a>
              <UnreadCount count={counts.byConversation.get(key)} />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The open stream's topics, newest first, with unread counts; resolved topics marked. */
function TopicList(props: { state: ChatState; streamId: number; streamName: string; openTopic?: string; byTopic: Map<string, number> }) {
  const topics = props.state.topics.get(props.streamId);
  if (!topics) return <p class="topic-list-loading">Loading topics…</p>;
  return (
    <ul class="topic-list">
      {topics.map((t) => {
        const resolved = t.name.startsWith(RESOLVED_TOPIC_PREFIX);
        const current = props.openTopic !== undefined && props.openTopic.toLowerCase() === t.name.toLowerCase();
        const policy = props.state.userTopics.get(`${props.streamId}\u0000${t.name.toLowerCase()}`);
        return (
          <li key={t.name} class={`topic-item ${resolved ? "resolved" : ""} ${policy === 1 ? "muted" : ""} ${current ? "active" : ""}`}>
            <a href={streamHash(props.streamId, props.streamName, t.name)} aria-current={current ? "page" : undefined}>
              {t.name}
            </a>
            <UnreadCount count={props.byTopic.get(topicKey(props.streamId, t.name))} />
          </li>
        );
      })}
    </ul>
  );
}

/** Zulip's presence rule: active within 140 s of the last active ping, idle if connected then, else offline. */
export function presenceStatus(state: ChatState, userId: number, nowSeconds: number): "active" | "idle" | "offline" {
  const p = state.presence.get(userId);
  if (!p) return "offline";
  if (nowSeconds - p.active_timestamp <= 140) return "active";
  if (nowSeconds - p.idle_timestamp <= 140) return "idle";
  return "offline";
}

/** A presence dot (class `presence-active`, `presence-idle` or `presence-offline`), named for assistive technology. */
export function PresenceDot(props: { state: ChatState; userId: number }) {
  const status = presenceStatus(props.state, props.userId, Date.now() / 1000);
  return <span class={`presence-dot presence-${status}`} role="img" aria-label={status === "active" ? "Active" : status === "idle" ? "Idle" : "Offline"} />;
}
