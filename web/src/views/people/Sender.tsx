import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { ChatState } from "../../model/store.js";
import type { Message } from "../../model/types.js";
import { useChatUi } from "./context.js";
import { StatusEmoji } from "./StatusEmoji.js";

/** Whether a message's sender is muted by the reader (their own messages never are). */
export function senderMuted(state: ChatState, m: Pick<Message, "sender_id">): boolean {
  return m.sender_id !== state.me.user_id && state.people.muted.has(m.sender_id);
}

/**
 * The sender's name on a message: a button that opens their user card,
 * followed by their status emoji; "Muted user" for a muted sender
 * (https://zulip.com/help/mute-a-user).
 */
export function SenderName(props: { state: ChatState; message: Message }) {
  const ui = useChatUi();
  const { state, message: m } = props;
  const name = senderMuted(state, m) ? "Muted user" : m.sender_full_name;
  return (
    <>
      <button
        type="button"
        class="message-sender"
        onClick={(e) => {
          e.stopPropagation();
          ui?.openUserCard(m.sender_id, e.currentTarget as HTMLElement);
        }}
      >
        {name}
      </button>
      {!senderMuted(state, m) && <StatusEmoji state={state} userId={m.sender_id} />}
    </>
  );
}

/** The avatar's wrapper: a click opens the sender's card (the name is the keyboard way to it). */
export function AvatarTrigger(props: { userId: number; children: ComponentChildren }) {
  const ui = useChatUi();
  return (
    <span
      class="avatar-trigger"
      onClick={(e) => {
        e.stopPropagation();
        ui?.openUserCard(props.userId, e.currentTarget as HTMLElement);
      }}
    >
      {props.children}
    </span>
  );
}

/**
 * A muted sender's message content (https://zulip.com/help/mute-a-user): hidden
 * behind "This message was hidden because you have muted the sender." with a
 * "Show message" button; anyone else's shows as it is.
 */
export function MutedGate(props: { state: ChatState; message: Message; children: ComponentChildren }) {
  const [revealed, setRevealed] = useState(false);
  if (revealed || !senderMuted(props.state, props.message)) return <>{props.children}</>;
  return (
    <p class="muted-message">
      This message was hidden because you have muted the sender.{" "}
      <button
        type="button"
        class="link-button"
        onClick={(e) => {
          e.stopPropagation();
          setRevealed(true);
        }}
      >
        Show message
      </button>
    </p>
  );
}
