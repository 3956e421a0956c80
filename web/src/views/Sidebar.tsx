import { useEffect, useMemo } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import { dmHash, narrowDmUsers, narrowStreamTopic, streamHash, type View } from "../model/narrow.js";
import { matchContext } from "../model/store.js";
import { conversationKey, RESOLVED_TOPIC_PREFIX } from "../model/types.js";
import { topicKey, unreadCounts } from "../model/unread.js";
import { StreamSettingsLink } from "./StreamSettingsLink.js";
import { TopicActions } from "./topics/TopicMenu.js";

/**
 * An unread count, inside the link it counts for: the link reads "general 3 unread"
 * (a name on the span itself would be an ARIA role-less label, which assistive technology ignores).
 */
export function UnreadCount(props: { count: number | undefined }) {
  if (!props.count) return null;
  return (
    <span class="unread-count">
      {props.count}
      <span class="visually-hidden"> unread</span>
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
 * and direct-message conversations, then "Invite users to organization" for
 * those who may invite. Props: the state, the open view,
 * `loadTopics(streamId)` called when a stream opens, and `onInvite`.
 */
export function Sidebar(props: { state: ChatState; view: View; loadTopics(streamId: number): void; id?: string; onInvite?(): void }) {
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

  const viewLink = (label: string, href: string, current: boolean, count?: number) => (
    <li>
      <a class={`sidebar-view ${current ? "selected" : ""}`} href={href} aria-current={current ? "page" : undefined}>
        <span class="view-name">{label}</span>
        <UnreadCount count={count} />
      </a>
    </li>
  );

  return (
    <nav class="app-sidebar" id={props.id} aria-label="Channels and conversations">
      <ul class="sidebar-views">
        {viewLink("Combined feed", "#feed", view.kind === "feed", counts.total)}
        {viewLink("Inbox", "#inbox", view.kind === "inbox")}
        {viewLink("Mentions", "#narrow/is/mentioned", isOnly("mentioned"), counts.mentions)}
        {viewLink("Starred messages", "#narrow/is/starred", isOnly("starred"), state.starred.size || undefined)}
        {viewLink("Drafts", "#drafts", false)}
        {viewLink("Scheduled messages", "#scheduled", false)}
      </ul>
      <h2 class="sidebar-heading">Channels</h2>
      <ul class="sidebar-streams">
        {subs.map((sub) => {
          const current = open?.streamId === sub.stream_id;
          return (
            <li
              key={sub.stream_id}
              class={`sidebar-stream ${sub.is_muted ? "muted" : ""} ${sub.pin_to_top ? "pinned" : ""} ${current && !open?.topic ? "selected" : ""}`}
            >
              <a href={streamHash(sub.stream_id, sub.name)} aria-current={current && !open?.topic ? "page" : undefined}>
                <span class={`stream-swatch ${sub.invite_only ? "private" : ""}`} style={{ backgroundColor: sub.color }} aria-hidden="true" />
                <span class="stream-name">{sub.name}</span>
                {sub.invite_only && <span class="visually-hidden"> (private)</span>}
                <UnreadCount count={counts.byStream.get(sub.stream_id)} />
              </a>
              <StreamSettingsLink streamId={sub.stream_id} name={sub.name} />
              {current && (
                <TopicList state={state} streamId={sub.stream_id} streamName={sub.name} openTopic={open?.topic} byTopic={counts.byTopic} />
              )}
            </li>
          );
        })}
      </ul>
      <h2 class="sidebar-heading">Direct messages</h2>
      <ul class="sidebar-dms">
        {dms.map(([key]) => {
          const ids = key.split(",").map(Number);
          const current = openDm !== undefined && conversationKey(openDm, state.me.user_id) === key;
          return (
            <li key={key} class={`sidebar-dm ${current ? "selected" : ""}`}>
              <a href={dmHash(ids, (id) => state.users.get(id)?.full_name)} aria-current={current ? "page" : undefined}>
                <span class="dm-name">{conversationName(state, key)}</span>
                {ids.length === 1 ? <PresenceDot state={state} userId={ids[0]!} /> : <span class="group-dm-icon" aria-hidden="true" />}
                <UnreadCount count={counts.byConversation.get(key)} />
              </a>
            </li>
          );
        })}
        {dms.length === 0 && <li class="sidebar-empty">No direct messages yet</li>}
      </ul>
      {props.onInvite && (
        <button type="button" class="link-button sidebar-invite" onClick={props.onInvite}>
          Invite users to organization
        </button>
      )}
    </nav>
  );
}

/** The open stream's topics, newest first, with unread counts; resolved topics marked. */
function TopicList(props: { state: ChatState; streamId: number; streamName: string; openTopic?: string; byTopic: Map<string, number> }) {
  const topics = props.state.topics.get(props.streamId);
  if (!topics) return <p class="sidebar-loading">Loading topics…</p>;
  return (
    <ul class="sidebar-topics" aria-label={`Topics in ${props.streamName}`}>
      {topics.map((t) => {
        const resolved = t.name.startsWith(RESOLVED_TOPIC_PREFIX);
        const current = props.openTopic !== undefined && props.openTopic.toLowerCase() === t.name.toLowerCase();
        const policy = props.state.userTopics.get(`${props.streamId}\u0000${t.name.toLowerCase()}`);
        return (
          <li key={t.name} class={`sidebar-topic ${resolved ? "resolved" : ""} ${policy === 1 ? "muted" : ""} ${current ? "selected" : ""}`}>
            <a href={streamHash(props.streamId, props.streamName, t.name)} aria-current={current ? "page" : undefined}>
              <span class="topic-name">{resolved ? t.name.slice(RESOLVED_TOPIC_PREFIX.length) : t.name}</span>
              {resolved && <span class="visually-hidden"> (resolved)</span>}
              <UnreadCount count={props.byTopic.get(topicKey(props.streamId, t.name))} />
            </a>
            <TopicActions state={props.state} streamId={props.streamId} topic={t.name} messageId={t.max_id} />
          </li>
        );
      })}
      {topics.length === 0 && <li class="sidebar-empty">No topics yet</li>}
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

/** A presence dot (class `presence-dot active`, `idle` or `offline`), named for assistive technology. */
export function PresenceDot(props: { state: ChatState; userId: number }) {
  const status = presenceStatus(props.state, props.userId, Date.now() / 1000);
  return <span class={`presence-dot ${status}`} role="img" aria-label={status === "active" ? "Active" : status === "idle" ? "Idle" : "Offline"} />;
}
