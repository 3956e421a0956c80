import { useEffect, useId, useState } from "preact/hooks";
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
 * Saves one personal setting of a subscription
 * (`POST /users/me/subscriptions/properties`, https://zulip.com/api/update-subscription-settings)
 * and shows the chosen value until the `subscription` `update` event brings
 * it (or the server refuses: then the stored value returns, with the message).
 */
function useProperty<T extends boolean | string>(chat: Chat, streamId: number, property: string, stored: T) {
  const [chosen, setChosen] = useState<T | null>(null);
  const action = useAction((value: T) =>
    chat.api.call("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] }),
  );
  useEffect(() => setChosen(null), [stored]);
  const set = (value: T) => {
    setChosen(value);
    void action.run(value).then((ok) => !ok && setChosen(null));
  };
  return { value: chosen ?? stored, set, error: action.error };
}

/** A checkbox for one boolean subscription property, with its own refusal message. */
function PropertyCheckbox(props: { chat: Chat; streamId: number; property: string; label: string; stored: boolean; note?: string }) {
  const id = useId();
  const p = useProperty(props.chat, props.streamId, props.property, props.stored);
  return (
    <div class="settings-row">
      <div class="settings-row inline">
        <input type="checkbox" id={id} checked={p.value} onChange={(e) => p.set(e.currentTarget.checked)} />
        <label for={id}>{props.label}</label>
        {props.note && <span class="settings-note">{props.note}</span>}
      </div>
      <ErrorNote error={p.error} />
    </div>
  );
}

/**
 * The Personal tab of a stream's settings (https://zulip.com/help/change-the-color-of-a-channel,
 * https://zulip.com/help/mute-a-channel, https://zulip.com/help/pin-a-channel,
 * https://zulip.com/help/channel-notifications): the reader's color, mute, pin
 * and notification settings for the stream, each saved at once. The controls
 * show the subscription as the `subscription` `update` events leave it, so
 * every open tab and the sidebar agree; a notification setting the reader
 * never set shows their personal default, marked "(your default)".
 */
export function PersonalTab(props: { chat: Chat; state: ChatState; sub: SubscriptionWireObject }) {
  const { chat, state, sub } = props;
  const id = useId();
  const color = useProperty(chat, sub.stream_id, "color", sub.color);
  return (
    <div class="settings-form stream-personal">
      <h3>Personal settings</h3>
      <div class="settings-row">
        <div class="settings-row inline">
          <input
            type="color"
            id={`${id}-color`}
            value={color.value}
            // The picker fires `change` once the person settles on a color (`input` fires while dragging).
            onChange={(e) => color.set(e.currentTarget.value)}
          />
          <label for={`${id}-color`}>Channel color</label>
        </div>
        <ErrorNote error={color.error} />
      </div>
      <PropertyCheckbox chat={chat} streamId={sub.stream_id} property="is_muted" label="Mute channel" stored={sub.is_muted} />
      <PropertyCheckbox chat={chat} streamId={sub.stream_id} property="pin_to_top" label="Pin channel to top of left sidebar" stored={sub.pin_to_top} />
      <fieldset class="notification-fields">
        <legend>Notifications</legend>
        {NOTIFICATION_SETTINGS.map((s) => {
          const value = effectiveNotification(sub, s, state.userSettings);
          return (
            <PropertyCheckbox
              key={s.property}
              chat={chat}
              streamId={sub.stream_id}
              property={s.property}
              label={s.label}
              stored={value.on}
              note={value.inherited ? "(your default)" : undefined}
            />
          );
        })}
      </fieldset>
    </div>
  );
}
