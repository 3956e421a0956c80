import { useEffect, useMemo, useState } from "preact/hooks";
import type { ApiClient } from "../api/client.js";
import { logOut } from "../api/session.js";
import { browserClock, Chat, type ChatSnapshot } from "../model/chat.js";
import { parseHash } from "../model/narrow.js";
import { parseOverlayHash, type Overlay } from "../model/overlay.js";
import { composeListOf } from "../model/compose-lists.js";
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

type OverlayModule = typeof import("./settings/SettingsOverlay.js");

/**
 * The overlay the hash names (`#settings/…`, `#organization/…`, `#channels/…`)
 * and the last chat hash to go back to when it closes. The overlay's code is
 * loaded on demand, the first time one opens.
 */
function useOverlay(): { overlay: Overlay | null; mod: OverlayModule | null; close(): void } {
  const [overlay, setOverlay] = useState(() => parseOverlayHash(location.hash));
  const [mod, setMod] = useState<OverlayModule | null>(null);
  const [chatHash, setChatHash] = useState(() => (parseOverlayHash(location.hash) ? "#feed" : location.hash || "#feed"));
  useEffect(() => {
    const onHash = () => {
      const next = parseOverlayHash(location.hash);
      setOverlay(next);
      if (!next) setChatHash(location.hash || "#feed");
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (overlay && !mod) void import("./settings/SettingsOverlay.js").then(setMod);
  }, [overlay !== null]);
  return { overlay, mod, close: () => (location.hash = chatHash) };
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
  const { overlay, mod, close } = useOverlay();

  useEffect(() => {
    chat.start();
    return () => chat.stop();
  }, [chat]);

  useEffect(() => {
    const onHash = () => {
      if (!parseOverlayHash(location.hash) && !composeListOf(location.hash)) void chat.open(parseHash(location.hash));
    };
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
    <>
      <ChatScreen
        chat={chat}
        snap={snap}
        state={snap.state}
        overlayOpen={overlay !== null}
        onLogOut={async () => {
          chat.stop();
          await logOut();
          setGeneration((g) => g + 1);
        }}
      />
      {overlay && (mod ? <mod.SettingsOverlay chat={chat} state={snap.state} overlay={overlay} onClose={close} /> : <div class="settings-overlay" aria-busy="true" />)}
    </>
  );
}
