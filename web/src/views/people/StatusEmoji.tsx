import type { ChatState } from "../../model/store.js";
import { emojiGlyph } from "../../model/people.js";

/**
 * A person's status beside their name (https://zulip.com/help/status-and-availability):
 * the status emoji, with the status text as its name and tooltip; the text
 * itself too when `withText`. Nothing when the person set no status.
 */
export function StatusEmoji(props: { state: ChatState; userId: number; withText?: boolean }) {
  const status = props.state.people.statuses.get(props.userId);
  if (!status) return null;
  const glyph = emojiGlyph(status);
  const label = status.status_text || status.emoji_name.replace(/_/g, " ");
  return (
    <span class="user-status" title={status.status_text || undefined}>
      {glyph && (
        <span class="status-emoji" role="img" aria-label={props.withText ? status.emoji_name.replace(/_/g, " ") : `Status: ${label}`}>
          {glyph}
        </span>
      )}
      {props.withText && status.status_text && <span class="status-text">{status.status_text}</span>}
      {!glyph && !props.withText && <span class="visually-hidden">Status: {label}</span>}
    </span>
  );
}
