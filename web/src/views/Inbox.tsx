import { useMemo } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import { dmHash, streamHash } from "../model/narrow.js";
import { matchContext } from "../model/store.js";
import { unreadConversations } from "../model/unread.js";
import { conversationName, UnreadCount } from "./Sidebar.js";

/**
 * The inbox (https://zulip.com/help/inbox): the reader's unread
 * conversations, direct messages first, then stream topics grouped by
 * stream, newest first, each a link to its narrow with its unread count.
 * Muted topics and muted streams' topics are left out, as the combined feed leaves them out.
 */
export function Inbox(props: { state: ChatState }) {
  const { state } = props;
  const groups = useMemo(() => {
    const { topics, conversations } = unreadConversations(state.unread);
    const ctx = matchContext(state);
    const byStream = new Map<number, typeof topics>();
    for (const t of topics) {
      const policy = ctx.topicPolicy(t.stream_id, t.topic);
      if (policy === 1 || (ctx.isStreamMuted(t.stream_id) && policy !== 2 && policy !== 3)) continue;
      byStream.set(t.stream_id, [...(byStream.get(t.stream_id) ?? []), t]);
    }
    return { conversations, byStream };
  }, [state.unread, state.subscriptions, state.userTopics]);

  if (groups.conversations.length === 0 && groups.byStream.size === 0) {
    return (
      <section class="inbox inbox-empty" aria-label="Inbox">
        <p>There are no unread messages in your inbox.</p>
      </section>
    );
  }
  return (
    <section class="inbox" aria-label="Inbox">
      {groups.conversations.length > 0 && (
        <section class="inbox-group inbox-dms" aria-label="Direct messages">
          <h2 class="inbox-group-header">Direct messages</h2>
          <ul>
            {groups.conversations.map((c) => (
              <li key={c.key} class="inbox-row">
                <a href={dmHash(c.key.split(",").map(Number), (id) => state.users.get(id)?.full_name)}>
                  <span class="inbox-name">{conversationName(state, c.key)}</span>
                  <UnreadCount count={c.ids.length} />
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {[...groups.byStream].map(([streamId, topics]) => {
        const name = state.streams.get(streamId)?.name ?? `Stream ${streamId}`;
        const color = state.subscriptions.get(streamId)?.color;
        const total = topics.reduce((n, t) => n + t.ids.length, 0);
        return (
          <section key={streamId} class="inbox-group inbox-stream" aria-label={name}>
            <h2 class="inbox-group-header">
              <a href={streamHash(streamId, name)}>
                <span class="stream-swatch" style={color ? { backgroundColor: color } : undefined} aria-hidden="true" />
                <span class="inbox-name">{name}</span>
                <UnreadCount count={total} />
              </a>
            </h2>
            <ul>
              {topics.map((t) => (
                <li key={t.topic} class="inbox-row">
                  <a href={streamHash(streamId, name, t.topic)}>
                    <span class="inbox-name">{t.topic}</span>
                    <UnreadCount count={t.ids.length} />
                  </a>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
