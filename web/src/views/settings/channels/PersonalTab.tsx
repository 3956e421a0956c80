import { useId } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { ChatState } from "../../../model/store.js";
import type { SubscriptionWireObject } from "../../../model/types.js";
import { useAction } from "../../ui/useAction.js";
import { ErrorNote } from "../../ui/ErrorNote.js";

/** The per-stream notification settings and the personal setting each inherits when null. */
export const NOTIFICATION_SETTINGS = [
  { property: "desktop_notifications", label: "Desktop notifications", fallback: "enable_stream_desktop_notifications" },
  { property: "audible_notifications", label: "Audible desktop notifications", fallback: "enable_stream_audible_notifications" },
  { property: "push_notifications", label: "Mobile notifications", fallback: "enable_stream_push_notifications" },
  { property: "email_notifications", label: "Email notifications", fallback: "enable_stream_email_notifications" },
  { property: "wildcard_mentions_notify", label: "Notifications for @all/@everyone mentions", fallback: "wildcard_mentions_notify" },
] as const;

/**
 * The value a notification setting has for a subscription: its own when set,
 * else the reader's personal default (`user_settings`); `inherited` says which.
 */
export function effectiveNotification(
  sub: Pick<SubscriptionWireObject, (typeof NOTIFICATION_SETTINGS)[number]["property"]>,
  setting: (typeof NOTIFICATION_SETTINGS)[number],
  userSettings: Readonly<Record<string, unknown>>,
): { on: boolean; inherited: boolean } {
  const own = sub[setting.property];
  if (own === null || own === undefined) return { on: userSettings[setting.fallback] === true, inherited: true };
  return { on: own, inherited: false };
}

/**
 * The Personal tab of a stream's settings (https://zulip.com/help/change-the-color-of-a-channel,
 * https://zulip.com/help/mute-a-channel, https://zulip.com/help/pin-a-channel,
 * https://zulip.com/help/channel-notifications): the reader's color, mute, pin
 * and notification settings for the stream, each saved at once with
 * `POST /users/me/subscriptions/properties`
 * (https://zulip.com/api/update-subscription-settings). The controls show
 * the subscription as the `subscription` `update` events leave it, so every
 * open tab and the sidebar agree.
 */
export function PersonalTab(props: { chat: Chat; state: ChatState; sub: SubscriptionWireObject }) {
  const { chat, state, sub } = props;
  const id = useId();
  const change = useAction((property: string, value: boolean | string) =>
    chat.api.call("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: sub.stream_id, property, value }] }),
  );
  const checkbox = (property: string, label: string, checked: boolean, note?: string) => (
    <div class="settings-row inline" key={property}>
      <input
        type="checkbox"
        id={`${id}-${property}`}
        checked={checked}
        disabled={change.pending}
        onChange={(e) => void change.run(property, e.currentTarget.checked)}
      />
      <label for={`${id}-${property}`}>{label}</label>
      {note && <span class="settings-note">{note}</span>}
    </div>
  );
  return (
    <div class="settings-form stream-personal">
      <h3>Personal settings</h3>
      <div class="settings-row inline">
        <input
          type="color"
          id={`${id}-color`}
          value={sub.color}
          // The picker fires `change` once the person settles on a color (`input` fires while dragging).
          onChange={(e) => void change.run("color", e.currentTarget.value)}
        />
        <label for={`${id}-color`}>Channel color</label>
      </div>
      {checkbox("is_muted", "Mute channel", sub.is_muted)}
      {checkbox("pin_to_top", "Pin channel to top of left sidebar", sub.pin_to_top)}
      <fieldset class="notification-fields">
        <legend>Notifications</legend>
        {NOTIFICATION_SETTINGS.map((s) => {
          const value = effectiveNotification(sub, s, state.userSettings);
          return checkbox(s.property, s.label, value.on, value.inherited ? "(your default)" : undefined);
        })}
      </fieldset>
      <ErrorNote error={change.error} />
    </div>
  );
}
