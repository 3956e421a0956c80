import type { Chat } from "../../../model/chat.js";
import { privacyOf, PRIVACY_LABELS } from "../../../model/channels.js";
import type { StreamWireObject } from "../../../model/types.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";

/** A stream's privacy as an icon named for assistive technology ("Public", "Private, shared history", …). */
export function PrivacyIcon(props: { stream: Pick<StreamWireObject, "invite_only" | "is_web_public" | "history_public_to_subscribers"> }) {
  const privacy = privacyOf(props.stream);
  const glyph = privacy === "web-public" ? "🌐" : privacy === "public" ? "#" : "🔒";
  return (
    <span class={`privacy-icon ${privacy}`} role="img" aria-label={PRIVACY_LABELS[privacy].label} title={PRIVACY_LABELS[privacy].label}>
      {glyph}
    </span>
  );
}

/** Subscribes the reader to a stream by name (https://zulip.com/api/subscribe). */
export function subscribe(chat: Chat, name: string): Promise<unknown> {
  return chat.api.call("POST", "/users/me/subscriptions", { subscriptions: [{ name }] });
}

/** Unsubscribes the reader from a stream by name (https://zulip.com/api/unsubscribe). */
export function unsubscribe(chat: Chat, name: string): Promise<unknown> {
  return chat.api.call("DELETE", "/users/me/subscriptions", { subscriptions: [name] });
}

/**
 * "Subscribe" or "Unsubscribe" for one stream (named "Subscribe to <name>" /
 * "Unsubscribe from <name>"), with the server's refusal shown beside it. The
 * button follows the `subscription` events, not the answer.
 */
export function SubscribeButton(props: { chat: Chat; name: string; subscribed: boolean }) {
  const action = useAction(() => (props.subscribed ? unsubscribe(props.chat, props.name) : subscribe(props.chat, props.name)));
  return (
    <span class="subscribe-control">
      <button
        type="button"
        class={props.subscribed ? undefined : "button-primary"}
        aria-label={props.subscribed ? `Unsubscribe from ${props.name}` : `Subscribe to ${props.name}`}
        disabled={action.pending}
        onClick={() => void action.run()}
      >
        {props.subscribed ? "Unsubscribe" : "Subscribe"}
      </button>
      <ErrorNote error={action.error} />
    </span>
  );
}
