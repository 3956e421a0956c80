import { useEffect } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import { encodeHash } from "../../model/narrow.js";
import { followMovedTopic } from "../../model/topics.js";

/**
 * Follows a moved topic (https://zulip.com/help/move-content-to-another-channel):
 * when an `update_message` event moves the topic the open view shows, the
 * URL (and so the view) goes to the topic's new stream and name, as Zulip's
 * web app does for everyone viewing it.
 */
export function useFollowMoves(chat: Chat): void {
  useEffect(
    () =>
      chat.onEvents((events, snap, before) => {
        const state = snap.state;
        if (!state) return;
        for (const e of events) {
          if (e.type !== "update_message") continue;
          const next = followMovedTopic(snap.view, e, before.messages.map((m) => m.id));
          if (!next) continue;
          location.hash = encodeHash(next, {
            streamName: (id) => state.streams.get(id)?.name,
            userName: (id) => state.users.get(id)?.full_name,
          });
          return;
        }
      }),
    [chat],
  );
}
