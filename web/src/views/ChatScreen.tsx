import { useEffect, useId, useMemo, useState } from "preact/hooks";
import type { Chat, ChatSnapshot } from "../model/chat.js";
import type { ChatState } from "../model/store.js";
import { matchContext } from "../model/store.js";
import { dmHash, encodeHash, narrowDmUsers, narrowStreamTopic, nearMessageId, streamHash, viewKey, type NarrowNames } from "../model/narrow.js";
import { canEditContent } from "../model/message-permissions.js";
import { messageMenuActions } from "./messageMenuActions.js";
import { startEditing } from "./message/editing.js";
import { parseSearchQuery, searchQueryFromTerms } from "../model/query.js";
import { shownMessages } from "../model/messages.js";
import { dmTypingKey, streamTypingKey, typistsIn } from "../model/typing.js";
import { conversationKey, messageUserIds, type Message } from "../model/types.js";
import { unreadConversations, unreadCounts } from "../model/unread.js";
import { Compose, uploadToCompose } from "./compose/Compose.js";
import { fileDropProps } from "./compose/Uploads.js";
import { ImageLightbox } from "./lightbox/ImageLightbox.js";
import { useComposeTypeaheadData } from "./compose/typeaheadData.js";
import { applyColorScheme } from "../model/theme.js";
import type { ComposeTarget } from "./compose/types.js";
import { useComposeExtras } from "./compose/useComposeExtras.js";
import { submessageParams } from "../model/widgets.js";
import { Feed } from "./Feed.js";
import { Inbox } from "./Inbox.js";
import { focusSearch, SearchBox } from "./SearchBox.js";
import { installShortcuts } from "./shortcuts.js";
import { PresenceDot, presenceStatus, Sidebar } from "./Sidebar.js";
import { TopBar } from "./TopBar.js";
import { PeopleLayer } from "./people/PeopleLayer.js";
import { PersonCardButton } from "./people/PersonCardButton.js";
import { StatusEmoji } from "./people/StatusEmoji.js";
import { NotificationBanner } from "./notifications/NotificationBanner.js";
import { useNotifications } from "./notifications/useNotifications.js";
import { useFollowMoves } from "./topics/useFollowMoves.js";
import { useInviteLauncher } from "./invite/InviteLauncher.js";

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

/** The right-hand people list (wide screens): everyone but the reader, active first, each a link to a DM. */
function PeopleList(props: { state: ChatState; now: number }) {
  const { state, now } = props;
  const rank = (id: number) => ["active", "idle", "offline"].indexOf(presenceStatus(state, id, now / 1000));
  const others = [...state.users.values()]
    .filter((u) => u.is_active !== false && u.user_id !== state.me.user_id && !u.is_bot && !state.people.muted.has(u.user_id))
    .sort((a, b) => rank(a.user_id) - rank(b.user_id) || a.full_name.localeCompare(b.full_name));
  return (
    <aside class="people-list" aria-label="People">
      <h2 class="sidebar-heading">People</h2>
      <ul>
        {others.map((u) => (
          <li key={u.user_id} class="people-item">
            <a href={dmHash([u.user_id], (id) => state.users.get(id)?.full_name)}>
              <span class="dm-name">{u.full_name}</span>
              <StatusEmoji state={state} userId={u.user_id} />
              <PresenceDot state={state} userId={u.user_id} />
            </a>
            <PersonCardButton userId={u.user_id} name={u.full_name} />
          </li>
        ))}
      </ul>
    </aside>
  );
}

/**
 * The signed-in screen (class names: see styles/layout.css): the top bar
 * (organization name, search box, personal menu with "Log out"), the sidebar
 * (`nav`; a drawer behind the "Menu" button at phone width), the feed or the
 * inbox (`main`) with the typing notice and the compose box (a region named
 * "Compose", kept mounted so its draft survives narrowing), and the people
 * with presence dots. Installs the keyboard shortcuts.
 */
export function ChatScreen(props: {
  chat: Chat;
  snap: ChatSnapshot;
  state: ChatState;
  /** A settings overlay covers the screen: the chat's keyboard shortcuts are off. */
  overlayOpen?: boolean;
  onLogOut(): void;
}) {
  const { chat, snap, state } = props;
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [override, setOverride] = useState<{ target: ComposeTarget | null } | null>(null);
  const [composeOpen, setComposeOpen] = useState(true);
  const [composeKind, setComposeKind] = useState<"stream" | "private">("stream");
  const [focusRequest, setFocusRequest] = useState(0);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [now, setNow] = useState(Date.now());
  const [statusOpen, setStatusOpen] = useState(false);
  const invite = useInviteLauncher(chat, state);
  const sidebarId = useId();
  const names = useMemo(() => narrowNames(state), [state.streams, state.users]);
  const messages = shownMessages(snap.list);
  const openKey = viewKey(snap.view);
  useEffect(() => applyColorScheme(state.userSettings.color_scheme), [state.userSettings.color_scheme]);

  // Another view: no selection, compose back to the view's own recipient (open where it has one), drawer closed.
  useEffect(() => {
    setSelectedId(nearMessageId(snap.view));
    setOverride(null);
    setSidebarOpen(false);
    if (targetOfView(snap)) setComposeOpen(true);
  }, [openKey]);

  // The tab's title: the unread total, the open view and the organization (as Zulip's web app titles it).
  const unreadTotal = useMemo(() => unreadCounts(state.unread, matchContext(state)).total, [state.unread, state.subscriptions, state.userTopics]);
  useEffect(() => {
    const where =
      snap.view.kind === "inbox" ? "Inbox" : snap.view.kind === "feed" ? "Combined feed" : searchQueryFromTerms(snap.view.terms, names);
    document.title = `${unreadTotal > 0 ? `(${unreadTotal}) ` : ""}${where} - ${state.realm.name || "Chat"}`;
  }, [openKey, unreadTotal, state.realm.name]);
  useNotifications(chat, unreadTotal);
  useFollowMoves(chat);

  // Typing notices expire and presence ages: look again every few seconds while a notice shows, else each minute.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), state.typing.size > 0 ? 3000 : 60_000);
    return () => clearInterval(timer);
  }, [state.typing.size > 0]);

  /** Opens the compose box for `kind`, to `target` (null: the person picks), and focuses its first empty field. */
  const openCompose = (kind: "stream" | "private", target: ComposeTarget | null) => {
    setOverride({ target });
    setComposeKind(kind);
    setComposeOpen(true);
    setFocusRequest((n) => n + 1);
  };
  const extras = useComposeExtras(chat, state, openCompose);
  const overlayOpen = props.overlayOpen || extras.listOpen;
  const reply = (m: Message) => {
    setSelectedId(m.id);
    openCompose(m.type === "stream" ? "stream" : "private", replyTarget(m, state.me.user_id));
  };
  const select = (step: number) => {
    if (messages.length === 0) return;
    const idx = selectedId === undefined ? messages.length - 1 : messages.findIndex((m) => m.id === selectedId);
    const next = messages[Math.max(0, Math.min(messages.length - 1, (idx < 0 ? messages.length - 1 : idx) + step))];
    setSelectedId(next?.id);
  };

  useEffect(
    () =>
      overlayOpen
        ? undefined
        : installShortcuts(window, {
        composeStream: () => {
          const t = targetOfView(snap);
          openCompose("stream", t?.type === "stream" ? t : null);
        },
        composeDirect: () => {
          const t = targetOfView(snap);
          openCompose("private", t?.type === "private" ? t : null);
        },
        reply: () => {
          const m = messages.find((x) => x.id === selectedId) ?? messages.at(-1);
          if (m && !m.local_id) reply(m);
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
        search: () => focusSearch(),
        escape: () => {
          const active = document.activeElement as HTMLElement | null;
          if (active && active !== document.body) active.blur();
          if (sidebarOpen) setSidebarOpen(false);
          else if (selectedId !== undefined) setSelectedId(undefined);
          else setComposeOpen(false);
        },
        next: () => select(1),
        previous: () => select(-1),
        edit: () => {
          const m = messages.find((x) => x.id === selectedId) ?? messages.at(-1);
          if (m && canEditContent(state, m, Date.now() / 1000)) startEditing(m.id);
        },
        star: () => {
          const m = messages.find((x) => x.id === selectedId) ?? messages.at(-1);
          if (m && !m.local_id) void chat.toggleStar(m);
        },
      }),
    [snap, state, messages, selectedId, sidebarOpen, overlayOpen],
  );

  const target = override ? override.target : targetOfView(snap);
  const typists = (() => {
    const st = snap.view.kind === "narrow" ? narrowStreamTopic(snap.view.terms) : undefined;
    const dm = snap.view.kind === "narrow" ? narrowDmUsers(snap.view.terms) : undefined;
    const key =
      st?.topic !== undefined ? streamTypingKey(st.streamId, st.topic) : dm ? dmTypingKey(conversationKey(dm, state.me.user_id)) : undefined;
    return key ? typistsIn(state.typing, key, now).map((id) => state.users.get(id)?.full_name ?? "Someone") : [];
  })();
  const people = useMemo(
    () =>
      [...state.users.values()]
        .filter((u) => u.is_active !== false)
        .map((u) => ({ user_id: u.user_id, full_name: u.full_name, email: u.email })),
    [state.users],
  );
  const typeahead = useComposeTypeaheadData(state, snap.list, (id) => void chat.loadTopics(id));
  const streams = useMemo(
    () =>
      [...state.subscriptions.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((s) => ({ stream_id: s.stream_id, name: s.name })),
    [state.subscriptions],
  );

  const screen = (
    <div class={`app ${sidebarOpen ? "sidebar-open" : ""}`} inert={props.overlayOpen || undefined}>
      <TopBar
        realmName={state.realm.name}
        me={state.me}
        sidebarId={sidebarId}
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen(!sidebarOpen)}
        notice={snap.notice}
        onLogOut={props.onLogOut}
        onSetStatus={() => setStatusOpen(true)}
        onInvite={invite.open}
      >
        <SearchBox
          value={snap.view.kind === "narrow" ? searchQueryFromTerms(snap.view.terms, names) : ""}
          onSearch={(text) => {
            const terms = parseSearchQuery(text, names);
            location.hash = terms.length === 0 ? "#feed" : encodeHash({ kind: "narrow", terms }, names);
          }}
          onClear={() => {
            if (snap.view.kind === "narrow") location.hash = "#feed";
          }}
        />
      </TopBar>
      <Sidebar id={sidebarId} state={state} view={snap.view} loadTopics={(id) => void chat.loadTopics(id)} onInvite={invite.open} />
      <div class="drawer-backdrop" onClick={() => setSidebarOpen(false)} />
      <main
        class="app-main"
        // Files dropped outside the compose box open it (a reply to the selected message, else the view's
        // recipient) and upload there, as in Zulip's web app.
        {...fileDropProps((files) => {
          const m = messages.find((x) => x.id === selectedId);
          if (!composeOpen) m && !m.local_id ? reply(m) : openCompose(targetOfView(snap)?.type ?? "stream", targetOfView(snap));
          uploadToCompose(files);
        })}
      >
        <NotificationBanner enabled={state.userSettings.enable_desktop_notifications !== false} />
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
              reply,
              toggleStar: (m) => void chat.toggleStar(m),
              toggleReaction: (m, r) => void chat.toggleReaction(m, r),
              sendSubmessage: async (m, content) => void (await chat.api.call("POST", "/submessage", submessageParams(m.id, content))),
              ...messageMenuActions(chat, reply),
            }}
          />
        )}
        <p class="typing-notice" aria-live="polite">
          {typists.length > 0 ? typingText(typists) : ""}
        </p>
        <Compose
          api={chat.api}
          people={people}
          streams={streams}
          target={target}
          kind={composeKind}
          enterSends={state.settings.enter_sends}
          onEnterSendsChange={async (value) => {
            await chat.api.call("PATCH", "/settings", { enter_sends: value });
          }}
          open={composeOpen}
          onClose={() => {
            extras.closed();
            setComposeOpen(false);
          }}
          onOpen={(kind) => openCompose(kind, kind === "stream" ? (targetOfView(snap)?.type === "stream" ? targetOfView(snap) : null) : null)}
          focusRequest={focusRequest}
          selfUserId={state.me.user_id}
          maxUploadSizeMib={state.realmSettings.max_file_upload_size_mib as number | undefined}
          onSend={(t, content) => extras.send(t, content) ?? chat.send(t, content)}
          {...extras.compose}
          typeahead={typeahead}
        />
      </main>
      <PeopleList state={state} now={now} />
      <ImageLightbox state={state} messages={messages} />
      {extras.overlay}
      {invite.dialog}
    </div>
  );
  return (
    <PeopleLayer chat={chat} state={state} statusOpen={statusOpen} onStatusClose={() => setStatusOpen(false)}>
      {screen}
    </PeopleLayer>
  );
}
