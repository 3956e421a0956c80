import { useEffect } from "preact/hooks";
import type { Chat, ChatSnapshot } from "../../model/chat.js";
import { messageMatchesNarrow, streamHash, dmHash, type View } from "../../model/narrow.js";
import { notificationText, notifyDecision } from "../../model/notify.js";
import { matchContext, type ChatState } from "../../model/store.js";
import type { Message } from "../../model/types.js";
import { playNotificationSound } from "./sound.js";
import { setFaviconCount } from "./favicon.js";

/** The plain text of a message's HTML, for a notification's body. */
function plainText(html: string): string {
  const div = document.createElement("div");
  div.innerHTML = html;
  return div.textContent ?? "";
}

/** Whether the focused window shows this message in the open view. */
function shownInFocusedView(m: Message, view: View, state: ChatState): boolean {
  if (!document.hasFocus() || view.kind === "inbox") return false;
  return messageMatchesNarrow(m, view.kind === "narrow" ? view.terms : [], matchContext(state));
}

/** Where clicking a message's notification goes: its topic or its conversation. */
function hashOf(m: Message, state: ChatState): string {
  if (m.type === "stream" && m.stream_id !== undefined) return streamHash(m.stream_id, state.streams.get(m.stream_id)?.name ?? "", m.subject);
  const ids = (Array.isArray(m.display_recipient) ? m.display_recipient.map((u) => u.id) : [m.sender_id]).filter((id) => id !== state.me.user_id);
  return dmHash(ids.length > 0 ? ids : [state.me.user_id], (id) => state.users.get(id)?.full_name);
}

/** Shows one desktop notification; clicking it focuses the window on the message's conversation. */
function showNotification(m: Message, state: ChatState): void {
  const streamName = m.stream_id !== undefined ? state.streams.get(m.stream_id)?.name : undefined;
  const { title, body } = notificationText(m, plainText(m.content), streamName, state.userSettings);
  const sender = state.users.get(m.sender_id);
  const n = new Notification(title, { body, tag: String(m.id), ...(sender?.avatar_url ? { icon: sender.avatar_url } : {}) });
  n.onclick = () => {
    window.focus();
    location.hash = hashOf(m, state);
    n.close();
  };
}

/**
 * Desktop notifications and the notification sound for new messages
 * (https://zulip.com/help/desktop-notifications): each `message` event from
 * the queue goes through {@link notifyDecision} with the reader's settings,
 * the stream's notification settings, the topic's visibility, muted users
 * and whether the focused window shows it; a desktop notification needs the
 * browser's permission. Also keeps the tab's favicon badge at `unreadTotal`.
 */
export function useNotifications(chat: Chat, unreadTotal: number): void {
  useEffect(() => {
    setFaviconCount(unreadTotal);
  }, [unreadTotal]);
  useEffect(
    () =>
      chat.onEvents((events, snap: ChatSnapshot) => {
        const state = snap.state;
        if (!state) return;
        let sound = false;
        for (const e of events) {
          if (e.type !== "message" || e.id < 0) continue;
          const m: Message = { ...e.message, flags: e.flags };
          const decision = notifyDecision(m, {
            myUserId: state.me.user_id,
            settings: state.userSettings,
            subscription: m.stream_id !== undefined ? state.subscriptions.get(m.stream_id) : undefined,
            topicPolicy: m.stream_id !== undefined ? matchContext(state).topicPolicy(m.stream_id, m.subject) : 0,
            senderMuted: state.people.muted.has(m.sender_id),
            inFocusedView: shownInFocusedView(m, snap.view, state),
          });
          if (decision.desktop && typeof Notification !== "undefined" && Notification.permission === "granted") {
            try {
              showNotification(m, state);
            } catch {
              // Some browsers allow notifications only from a service worker: the sound and the badge still tell.
            }
          }
          sound ||= decision.sound;
        }
        if (sound) playNotificationSound(String(state.userSettings.notification_sound ?? "zulip"));
      }),
    [chat],
  );
}
