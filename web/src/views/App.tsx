import { useEffect, useMemo, useState } from "preact/hooks";
import type { ApiClient } from "../api/client.js";
import { logOut } from "../api/session.js";
import { browserClock, Chat, type ChatSnapshot } from "../model/chat.js";
import { parseHash } from "../model/narrow.js";
import { Login } from "./Login.js";
import { ChatScreen } from "./ChatScreen.js";

/** Follows a {@link Chat}'s snapshot. */
function useSnapshot(chat: Chat): ChatSnapshot {
  const [snap, setSnap] = useState(chat.snapshot);
  useEffect(() => {
    setSnap(chat.snapshot);
    return chat.subscribe(() => setSnap(chat.snapshot));
  }, [chat]);
  return snap;
}

/**
 * The whole app: registers an event queue (`POST /json/register`); when it
 * answers 401 there is no session and the sign-in page shows, else the chat.
 * Signing in starts a new controller; signing out ends the session on the
 * server and comes back to the sign-in page.
 */
export function App(props: { api: ApiClient }) {
  const [generation, setGeneration] = useState(0);
  const chat = useMemo(() => new Chat(props.api, parseHash(location.hash), browserClock, () => document.hasFocus()), [props.api, generation]);
  const snap = useSnapshot(chat);

  useEffect(() => {
    chat.start();
    return () => chat.stop();
  }, [chat]);

  useEffect(() => {
    const onHash = () => void chat.open(parseHash(location.hash));
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [chat]);

  if (snap.signedOut) {
    // Login renders the page's own `main.login-page`.
    return <Login onLoggedIn={() => setGeneration((g) => g + 1)} />;
  }
  if (!snap.state) {
    return (
      <main class="app-loading" aria-busy="true">
        <p>{snap.notice ?? "Loading…"}</p>
      </main>
    );
  }
  return (
    <ChatScreen
      chat={chat}
      snap={snap}
      state={snap.state}
      onLogOut={async () => {
        chat.stop();
        await logOut();
        setGeneration((g) => g + 1);
      }}
    />
  );
}
