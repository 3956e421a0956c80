import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Chat, ChatSnapshot } from "../model/chat.js";
import type { ChatState } from "../model/store.js";
import { matchContext } from "../model/store.js";
import { dmHash, encodeHash, narrowDmUsers, narrowStreamTopic, streamHash, type NarrowNames } from "../model/narrow.js";
import { parseSearchQuery, searchQueryFromTerms } from "../model/query.js";
import { shownMessages } from "../model/messages.js";
import { dmTypingKey, streamTypingKey, typistsIn } from "../model/typing.js";
import { conversationKey, messageUserIds, type Message } from "../model/types.js";
import { unreadConversations } from "../model/unread.js";
import { Compose } from "./compose/Compose.js";
import type { ComposeTarget } from "./compose/types.js";
import { Feed } from "./Feed.js";
import { Inbox } from "./Inbox.js";
import { SearchBox } from "./SearchBox.js";
import { installShortcuts } from "./shortcuts.js";
import { PresenceDot, presenceStatus, Sidebar } from "./Sidebar.js";

/** Names for narrows and search, from the state. */
export function narrowNames(state: ChatState): NarrowNames {
  const byName = new Map([...state.streams.values()].map((s) => [s.name.toLowerCase(), s.stream_id]));
  return {
    myUserId: state.me.user_id,
    streamName: (id) => state.streams.get(id)?.name,
    streamIdByName: (name) => byName.get(name.toLowerCase()),
    userName: (id) => state.users.get(id)?.full_name,
    userIdByEmailOrName: (text) => {
      const t = text.toLowerCase();
      const users = [...state.users.values()];
      const byEmail = users.find((u) => u.email.toLowerCase() === t);
      if (byEmail) return byEmail.user_id;
      const byName = users.filter((u) => u.full_name.toLowerCase() === t);
      return byName.length === 1 ? byName[0]!.user_id : undefined;
    },
  };
}

/** Where compose sends by default in the open view: its stream and topic, or its conversation. */
function targetOfView(snap: ChatSnapshot): ComposeTarget | null {
  if (snap.view.kind !== "narrow") return null;
  const st = narrowStreamTopic(snap.view.terms);
  if (st) return { type: "stream", stream_id: st.streamId, topic: st.topic ?? "" };
  const dm = narrowDmUsers(snap.view.terms);
  return dm ? { type: "private", user_ids: dm } : null;
}

/** Where a reply to a message goes. */
function replyTarget(m: Message, myUserId: number): ComposeTarget {
  if (m.type === "stream" && m.stream_id !== undefined) return { type: "stream", stream_id: m.stream_id, topic: m.subject };
  return { type: "private", user_ids: conversationKey(messageUserIds(m), myUserId).split(",").map(Number) };
}

/** "Iago is typing…", "Iago and Cordelia are typing…", "Several people are typing…". */
function typingText(names: string[]): string {
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return "Several people are typing…";
}

/**
 * The signed-in screen: a header (search box, personal menu with "Log out"),
 * the sidebar (`nav`), the feed or the inbox (`main`), typing notices, the
 * compose box (a region named "Compose"), and the people with presence dots.
 * Installs the keyboard shortcuts.
 */
export function ChatScreen(props: { chat: Chat; snap: ChatSnapshot; state: ChatState; onLogOut(): void }) {
  const { chat, snap, state } = props;
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [override, setOverride] = useState<{ target: ComposeTarget | null } | null>(null);
  const [now, setNow] = useState(Date.now());
  const composeRef = useRef<HTMLElement>(null);
  const names = useMemo(() => narrowNames(state), [state.streams, state.users]);
  const messages = shownMessages(snap.list);

  useEffect(() => {
    setSelectedId(undefined);
    setOverride(null);
  }, [snap.view]);

  // Typing notices expire: look again every few seconds while any is shown.
  useEffect(() => {
    if (state.typing.size === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 3000);
    return () => clearInterval(timer);
  }, [state.typing.size > 0]);

  const focusCompose = () => setTimeout(() => composeRef.current?.querySelector<HTMLElement>("textarea, input")?.focus(), 0);
  const select = (step: number) => {
    if (messages.length === 0) return;
    const idx = selectedId === undefined ? messages.length - 1 : messages.findIndex((m) => m.id === selectedId);
    const next = messages[Math.max(0, Math.min(messages.length - 1, (idx < 0 ? messages.length - 1 : idx) + step))];
    setSelectedId(next?.id);
  };

  useEffect(
    () =>
      installShortcuts(window, {
        composeStream: () => {
          const t = targetOfView(snap);
          setOverride({ target: t?.type === "stream" ? t : null });
          focusCompose();
        },
        composeDirect: () => {
          const t = targetOfView(snap);
          setOverride({ target: t?.type === "private" ? t : null });
          focusCompose();
        },
        reply: () => {
          const m = messages.find((x) => x.id === selectedId) ?? messages.at(-1);
          if (m) setOverride({ target: replyTarget(m, state.me.user_id) });
          focusCompose();
        },
        nextUnreadTopic: () => {
          const open = snap.view.kind === "narrow" ? narrowStreamTopic(snap.view.terms) : undefined;
          const ctx = matchContext(state);
          const next = unreadConversations(state.unread).topics.find(
            (t) =>
              ctx.topicPolicy(t.stream_id, t.topic) !== 1 &&
              !ctx.isStreamMuted(t.stream_id) &&
              !(open?.streamId === t.stream_id && open.topic?.toLowerCase() === t.topic.toLowerCase()),
          );
          if (next) location.hash = streamHash(next.stream_id, state.streams.get(next.stream_id)?.name ?? "", next.topic);
        },
        search: () => document.querySelector<HTMLInputElement>('.app-header [role="search"] input')?.focus(),
        escape: () => {
          const active = document.activeElement as HTMLElement | null;
          if (active && active !== document.body) active.blur();
          setOverride(null);
          setSelectedId(undefined);
        },
        next: () => select(1),
        previous: () => select(-1),
      }),
    [snap, state, messages, selectedId],
  );

  const target = override ? override.target : targetOfView(snap);
  const typists = (() => {
    const st = snap.view.kind === "narrow" ? narrowStreamTopic(snap.view.terms) : undefined;
    const dm = snap.view.kind === "narrow" ? narrowDmUsers(snap.view.terms) : undefined;
    const key =
      st?.topic !== undefined ? streamTypingKey(st.streamId, st.topic) : dm ? dmTypingKey(conversationKey(dm, state.me.user_id)) : undefined;
    return key ? typistsIn(state.typing, key, now).map((id) => state.users.get(id)?.full_name ?? "Someone") : [];
  })();
  const people = [...state.users.values()].filter((u) => u.is_active !== false);
  const others = people
    .filter((u) => u.user_id !== state.me.user_id && !u.is_bot)
    .sort((a, b) => {
      const rank = (id: number) => ["active", "idle", "offline"].indexOf(presenceStatus(state, id, now / 1000));
      return rank(a.user_id) - rank(b.user_id) || a.full_name.localeCompare(b.full_name);
    });

  return (
    <div class="app">
      <header class="app-header">
        <a class="realm-name" href="#feed">
          {state.realm.name || "Chat"}
        </a>
        <SearchBox
          key={encodeHash(snap.view, names)}
          value={snap.view.kind === "narrow" ? searchQueryFromTerms(snap.view.terms, names) : ""}
          onSearch={(text) => {
            const terms = parseSearchQuery(text, names);
            location.hash = terms.length === 0 ? "#feed" : encodeHash({ kind: "narrow", terms }, names);
          }}
        />
        {snap.notice && (
          <p class="connection-notice" role="status">
            {snap.notice}
          </p>
        )}
        <details class="user-menu">
          <summary aria-label="Personal menu">
            <span class="user-menu-name">{state.me.full_name}</span>
          </summary>
          <div class="user-menu-items">
            <p class="user-menu-email">{state.me.email}</p>
            <button type="button" class="logout" onClick={props.onLogOut}>
              Log out
            </button>
          </div>
        </details>
      </header>
      <Sidebar state={state} view={snap.view} loadTopics={(id) => void chat.loadTopics(id)} />
      <main class="main-view">
        {snap.view.kind === "inbox" ? (
          <Inbox state={state} />
        ) : (
          <Feed
            state={state}
            view={snap.view}
            list={snap.list}
            loadingOlder={snap.loadingOlder}
            loadingNewer={snap.loadingNewer}
            selectedId={selectedId}
            actions={{
              loadOlder: () => void chat.loadOlder(),
              loadNewer: () => void chat.loadNewer(),
              seen: (ids) => chat.seen(ids),
              select: (m) => setSelectedId(m.id),
              toggleStar: (m) => void chat.toggleStar(m),
              toggleReaction: (m, r) => void chat.toggleReaction(m, r),
            }}
          />
        )}
        <p class="typing-notice" aria-live="polite">
          {typists.length > 0 ? typingText(typists) : ""}
        </p>
      </main>
      <section class="compose-region" aria-label="Compose" ref={composeRef}>
        <Compose
          key={JSON.stringify(target)}
          api={chat.api}
          people={people.map((u) => ({ user_id: u.user_id, full_name: u.full_name, email: u.email }))}
          streams={[...state.subscriptions.values()].map((s) => ({ stream_id: s.stream_id, name: s.name }))}
          target={target}
          enterSends={state.settings.enter_sends}
          onSend={(t, content) => chat.send(t, content)}
        />
      </section>
      <aside class="buddy-list" aria-label="Users">
        <h2 class="sidebar-heading">Users</h2>
        <ul>
          {others.map((u) => (
            <li key={u.user_id} class="buddy-item">
              <PresenceDot state={state} userId={u.user_id} />
              <a href={dmHash([u.user_id], (id) => state.users.get(id)?.full_name)}>{u.full_name}</a>
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
