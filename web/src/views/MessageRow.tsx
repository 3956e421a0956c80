import { format, isSameDay } from "date-fns";
import { useState } from "preact/hooks";
import type { ChatState } from "../model/store.js";
import type { Message, Reaction } from "../model/types.js";
import { dmHash, streamHash } from "../model/narrow.js";
import { groupReactions } from "../model/messages.js";
import { conversationKey, messageUserIds } from "../model/types.js";
import { RenderedContent } from "./message/RenderedContent.js";
import { MessageWidget, type SendSubmessage } from "./widgets/MessageWidget.js";
import { conversationName } from "./Sidebar.js";
import { EmojiGlyph } from "./emoji/EmojiGlyph.js";
import { EmojiPickerButton } from "./emoji/EmojiPickerButton.js";
import type { MessageMenuActions } from "./message/actions.js";
import { stopEditing, useEditing } from "./message/editing.js";
import { MessageActionButtons } from "./message/MessageActionButtons.js";
import { MessageEditForm } from "./message/MessageEditForm.js";
import { AvatarTrigger, MutedGate, SenderName, senderMuted } from "./people/Sender.js";
import { TopicActions } from "./topics/TopicMenu.js";

/** What a row can do (with the edit, delete and menu actions of {@link MessageMenuActions}). */
export interface MessageActions extends MessageMenuActions {
  toggleReaction(message: Message, reaction: Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">): void;
  toggleStar(message: Message): void;
  select(message: Message): void;
  /** Opens the compose box replying to the message (its stream and topic, or its conversation). */
  reply(message: Message): void;
  /** Sends a poll or to-do submessage (`POST /submessage`); rejects with the server's refusal. */
  sendSubmessage?: SendSubmessage;
}

/** Whether two messages are in the same conversation (stream and topic, or people), so no header sits between them. */
export function sameConversation(a: Message, b: Message): boolean {
  if (a.type !== b.type) return false;
  if (a.type === "stream") return a.stream_id === b.stream_id && a.subject.toLowerCase() === b.subject.toLowerCase();
  return messageUserIds(a).sort().join() === messageUserIds(b).sort().join();
}

/** The header above a run of messages: `stream › topic` (both links) or the conversation's people (a link). */
function RecipientHeader(props: { state: ChatState; message: Message }) {
  const { state, message: m } = props;
  if (m.type === "stream" && m.stream_id !== undefined) {
    const name = state.streams.get(m.stream_id)?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : "");
    const color = state.subscriptions.get(m.stream_id)?.color;
    return (
      <div class="recipient-header stream-header">
        <span class="stream-swatch" style={color ? { backgroundColor: color } : undefined} aria-hidden="true" />
        <a class="recipient-stream" href={streamHash(m.stream_id, name)}>
          {name}
        </a>
        <span class="recipient-sep" aria-hidden="true">
          ›
        </span>
        <a class="recipient-topic" href={streamHash(m.stream_id, name, m.subject)}>
          {m.subject}
        </a>
        {!m.local_id && <TopicActions state={state} streamId={m.stream_id} topic={m.subject} messageId={m.id} messageTimestamp={m.timestamp} />}
      </div>
    );
  }
  const key = conversationKey(messageUserIds(m), state.me.user_id);
  return (
    <div class="recipient-header dm-header">
      <a href={dmHash(key.split(",").map(Number), (id) => state.users.get(id)?.full_name)}>
        {key === String(state.me.user_id) ? "You (notes to self)" : `You and ${conversationName(state, key)}`}
      </a>
    </div>
  );
}

/** The sender's picture; their initial on a tinted square when there is none or it fails to load. */
function Avatar(props: { url: string | undefined; name: string; userId: number }) {
  const [failed, setFailed] = useState(false);
  if (props.url && !failed) {
    return <img class="message-avatar" src={props.url} alt="" width={36} height={36} loading="lazy" decoding="async" onError={() => setFailed(true)} />;
  }
  return (
    <span class={`message-avatar avatar-initial tint-${props.userId % 6}`} aria-hidden="true">
      {props.name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

/**
 * One message of the feed: a date line when the day changes from `previous`,
 * the recipient header when the conversation changes, then the message
 * (`article.message-row`): the sender's avatar and name (left out when the
 * same sender continues), the time in the reader's time zone, the server's
 * HTML (or, while it is edited, the edit form; a poll or to-do list as its
 * widget), reactions with counts (click to toggle), and the actions (reply,
 * add an emoji reaction through the picker, then {@link MessageActionButtons}:
 * edit, delete, star, the "Message actions" menu).
 */
export function MessageRow(props: {
  state: ChatState;
  message: Message;
  previous: Message | undefined;
  selected: boolean;
  actions: MessageActions;
}) {
  const { state, message: m, previous, actions } = props;
  const time = new Date(m.timestamp * 1000);
  const newDay = !previous || !isSameDay(new Date(previous.timestamp * 1000), time);
  const header = !previous || !sameConversation(previous, m);
  const continued = !header && previous?.sender_id === m.sender_id && !newDay;
  const unread = !m.flags.includes("read");
  const me = state.me.user_id;
  const local = !!m.local_id;
  const avatar = m.avatar_url ?? state.users.get(m.sender_id)?.avatar_url ?? undefined;
  const classes = ["message-row", local ? "local" : "", props.selected ? "selected" : "", unread ? "unread" : "", continued ? "continued" : ""];
  const editing = useEditing(m.id);
  return (
    <>
      {newDay && (
        <div class="date-separator" role="separator" aria-label={format(time, "EEEE, MMMM d, yyyy")}>
          <span aria-hidden="true">{format(time, "EEEE, MMMM d, yyyy")}</span>
        </div>
      )}
      {header && <RecipientHeader state={state} message={m} />}
      <article
        class={classes.filter(Boolean).join(" ")}
        aria-label={`Message from ${m.sender_full_name}`}
        aria-current={props.selected ? "true" : undefined}
        data-message-id={m.id}
        onClick={() => actions.select(m)}
      >
        {!continued && (
          <AvatarTrigger userId={m.sender_id}>
            <Avatar url={senderMuted(state, m) ? undefined : (avatar ?? undefined)} name={m.sender_full_name} userId={m.sender_id} />
          </AvatarTrigger>
        )}
        <div class="message-body">
          <div class="message-header">
            {!continued && <SenderName state={state} message={m} />}
            <time class="message-time" dateTime={time.toISOString()} title={format(time, "PPPPpp")}>
              {format(time, state.settings.twenty_four_hour_time ? "HH:mm" : "h:mm a")}
            </time>
            <span class="message-actions">
              <button
                type="button"
                class="message-action"
                aria-label="Reply"
                title="Reply (r)"
                disabled={local}
                onClick={(e) => {
                  e.stopPropagation();
                  actions.reply(m);
                }}
              >
                ↩
              </button>
              <EmojiPickerButton
                label="Add emoji reaction"
                class="message-action"
                disabled={local}
                realmEmoji={state.realmEmoji}
                userId={me}
                onPick={(e) => actions.toggleReaction(m, { emoji_name: e.name, emoji_code: e.code, reaction_type: e.reaction_type })}
              >
                ☺
              </EmojiPickerButton>
              <MessageActionButtons state={state} message={m} actions={actions} />
            </span>
          </div>
          {editing ? (
            <MessageEditForm
              loadSource={() => actions.loadSource(m)}
              save={(content) => actions.editMessage(m, content)}
              close={() => stopEditing(m.id)}
            />
          ) : (
            <MutedGate state={state} message={m}>
              <MessageWidget state={state} message={m} send={local ? undefined : actions.sendSubmessage}>
                <RenderedContent html={m.content} selfUserId={me} class="message-content" />
              </MessageWidget>
            </MutedGate>
          )}
          {m.last_edit_timestamp !== undefined && <span class="message-edited">(edited)</span>}
          {m.reactions.length > 0 && (
            <div class="message-reactions">
              {groupReactions(m.reactions).map((g) => {
                const mine = g.user_ids.includes(me);
                const names = g.user_ids.map((id) => (id === me ? "You" : (state.users.get(id)?.full_name ?? "Someone"))).join(", ");
                return (
                  <button
                    key={`${g.reaction_type}:${g.emoji_code}`}
                    type="button"
                    class={`reaction ${mine ? "reacted" : ""}`}
                    aria-pressed={mine}
                    aria-label={`${g.emoji_name}: ${g.user_ids.length}`}
                    title={`${names} reacted with :${g.emoji_name}:`}
                    onClick={(e) => {
                      e.stopPropagation();
                      actions.toggleReaction(m, g);
                    }}
                  >
                    <span class="reaction-emoji" aria-hidden="true">
                      <EmojiGlyph name={g.emoji_name} code={g.emoji_code} reactionType={g.reaction_type} realmEmoji={state.realmEmoji} />
                    </span>
                    <span class="reaction-count">{g.user_ids.length}</span>
                  </button>
                );
              })}
            </div>
          )}
        </div>
      </article>
    </>
  );
}
