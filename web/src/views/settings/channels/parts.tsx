import type { Chat } from "../../../model/chat.js";
import { privacyOf, PRIVACY_LABELS } from "../../../model/channels.js";
import type { StreamWireObject } from "../../../model/types.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";

/** The outline of each privacy's icon (24×24 view box): a hash, a lock, a globe. */
const ICON_PATHS: Record<"public" | "private" | "web-public", string> = {
  public: "M9 3 7 21M17 3l-2 18M4 8.5h17M3 15.5h17",
  private: "M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11",
  "web-public": "M12 3a9 9 0 1 0 0 18 9 9 0 1 0 0-18M3 12h18M12 3c-3 3.5-3 14.5 0 18M12 3c3 3.5 3 14.5 0 18",
};

/** A stream's privacy as an icon named for assistive technology ("Public", "Private, shared history", …). */
export function PrivacyIcon(props: { stream: Pick<StreamWireObject, "invite_only" | "is_web_public" | "history_public_to_subscribers"> }) {
  const privacy = privacyOf(props.stream);
  const shape = privacy === "web-public" || privacy === "public" ? privacy : "private";
  return (
    <svg class={`privacy-icon ${privacy}`} role="img" aria-label={PRIVACY_LABELS[privacy].label} viewBox="0 0 24 24" width="14" height="14">
      <title>{PRIVACY_LABELS[privacy].label}</title>
      <path d={ICON_PATHS[shape]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
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
