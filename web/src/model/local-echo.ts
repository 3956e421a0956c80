import type { ChatState } from "./state.js";
import type { Message } from "./types.js";

/** Where a message goes: a stream and topic, or the other people of a conversation. */
export type SendTarget = { type: "stream"; stream_id: number; topic: string } | { type: "private"; user_ids: number[] };

/**
 * The local echo of a message being sent: shown in the feed at once with
 * its `local_id` (a fractional ID just above the newest message), the typed
 * text escaped until the server's rendering replaces it (Zulip's
 * `local_message` echo).
 * @param localId the `local_id` the send posts, e.g. `"1234.001"`
 * @param nowMs the reader's clock, in milliseconds
 */
export function buildLocalEcho(state: ChatState, target: SendTarget, content: string, localId: string, nowMs: number): Message {
  const me = state.users.get(state.me.user_id);
  const echo: Message = {
    id: Number(localId),
    local_id: localId,
    type: target.type,
    sender_id: state.me.user_id,
    sender_email: state.me.email,
    sender_full_name: state.me.full_name,
    sender_realm_str: "",
    avatar_url: me?.avatar_url ?? null,
    recipient_id: 0,
    display_recipient:
      target.type === "stream"
        ? (state.streams.get(target.stream_id)?.name ?? "")
        : [state.me.user_id, ...target.user_ids].map((id) => ({ id, email: "", full_name: state.users.get(id)?.full_name ?? "", is_mirror_dummy: false })),
    subject: target.type === "stream" ? target.topic : "",
    ...(target.type === "stream" ? { stream_id: target.stream_id } : {}),
    topic_links: [],
    content: "",
    content_type: "text/html",
    timestamp: Math.floor(nowMs / 1000),
    client: "website",
    is_me_message: false,
    reactions: [],
    submessages: [],
    flags: ["read"],
  };
  // The echo shows the typed text escaped until the server's rendering arrives.
  echo.content = `<p>${content.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;
  return echo;
}
