/**
 * Which new messages notify the reader, and how (https://zulip.com/help/desktop-notifications,
 * https://zulip.com/help/channel-notifications, https://zulip.com/help/dm-mention-alert-notifications),
 * view-free: a desktop notification and a sound per message from the
 * reader's settings, their stream and topic settings and muting; and the
 * favicon's badge text from the unread count.
 */
import { isMentioned, type Message } from "./types.js";
import { VISIBILITY } from "./topics.js";

/** A subscription's notification settings (null: the reader's default for streams). */
export interface StreamNotificationSettings {
  is_muted: boolean;
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
}

/** Everything besides the message that decides whether it notifies. */
export interface NotifyContext {
  myUserId: number;
  /** The reader's settings (register's `user_settings`). */
  settings: Readonly<Record<string, unknown>>;
  /** The message's stream subscription, for stream messages. */
  subscription?: StreamNotificationSettings;
  /** The reader's visibility policy for the message's topic ({@link VISIBILITY}). */
  topicPolicy: number;
  senderMuted: boolean;
  /** The window has focus and the open view shows this message. */
  inFocusedView: boolean;
}

/** Why a message notifies. */
export type NotifyReason = "direct" | "mention" | "wildcard" | "alert_word" | "stream" | "followed";

/** The decision for one message: whether to show a desktop notification and play the sound, and why. */
export interface NotifyDecision {
  desktop: boolean;
  sound: boolean;
  reason: NotifyReason | null;
}

const NONE: NotifyDecision = { desktop: false, sound: false, reason: null };

/**
 * Whether a message can notify at all, whatever the settings (Zulip's
 * `message_is_notifiable`): not one's own, not already read, not from a muted
 * person, not in a muted topic (which overrides mentions), and in a muted
 * stream only when it mentions the reader by name or the topic is unmuted or followed.
 */
function notifiable(m: Message, ctx: NotifyContext): boolean {
  if (m.sender_id === ctx.myUserId || m.flags.includes("read") || ctx.senderMuted) return false;
  if (m.type !== "stream") return true;
  if (ctx.topicPolicy === VISIBILITY.muted) return false;
  const topicOn = ctx.topicPolicy === VISIBILITY.unmuted || ctx.topicPolicy === VISIBILITY.followed;
  return !ctx.subscription?.is_muted || topicOn || m.flags.includes("mentioned");
}

/** A per-stream setting, or the reader's default for streams (`enable_stream_<setting>`) when it is null. */
function streamSetting(ctx: NotifyContext, key: "desktop_notifications" | "audible_notifications"): boolean {
  const own = ctx.subscription?.[key];
  return own ?? ctx.settings[`enable_stream_${key}`] === true;
}

/** Why the message is personal: a DM, a mention by name, an alert word, or a wildcard mention the reader is notified of. */
function personalReason(m: Message, ctx: NotifyContext): NotifyReason | null {
  if (m.type === "private") return "direct";
  if (m.flags.includes("mentioned")) return "mention";
  if (m.flags.includes("has_alert_word")) return "alert_word";
  if (isMentioned(m.flags)) {
    const followed = ctx.topicPolicy === VISIBILITY.followed && ctx.settings.enable_followed_topic_wildcard_mentions_notify === true;
    const perStream = ctx.subscription?.wildcard_mentions_notify;
    if (followed || (perStream ?? ctx.settings.wildcard_mentions_notify === true)) return "wildcard";
  }
  return null;
}

/**
 * Whether a new message shows a desktop notification and plays the sound
 * (Zulip's `should_send_desktop_notification` and `should_send_audible_notification`):
 * never for one's own, read or muted messages nor when the focused window
 * shows it; a stream with its notifications on, or a followed topic with the
 * followed-topic setting on, notifies for every message; otherwise
 * `enable_desktop_notifications` / `enable_sounds` cover direct messages,
 * mentions, alert words and wildcard mentions (`wildcard_mentions_notify`,
 * per stream too). No sound when `notification_sound` is "none".
 */
export function notifyDecision(m: Message, ctx: NotifyContext): NotifyDecision {
  if (!notifiable(m, ctx) || ctx.inFocusedView) return NONE;
  const s = ctx.settings;
  const followed = m.type === "stream" && ctx.topicPolicy === VISIBILITY.followed;
  const personal = personalReason(m, ctx);
  const decide = (streamKey: "desktop_notifications" | "audible_notifications", followedKey: string, personalKey: string) => {
    if (m.type === "stream" && streamSetting(ctx, streamKey)) return true;
    if (followed && s[followedKey] === true) return true;
    return personal !== null && s[personalKey] === true;
  };
  const desktop = decide("desktop_notifications", "enable_followed_topic_desktop_notifications", "enable_desktop_notifications");
  const sound = s.notification_sound !== "none" && decide("audible_notifications", "enable_followed_topic_audible_notifications", "enable_sounds");
  if (!desktop && !sound) return NONE;
  return { desktop, sound, reason: personal ?? (followed ? "followed" : "stream") };
}

/**
 * The title and body of a message's desktop notification: the sender (and
 * the stream and topic), and the message's text, or only "New direct message
 * from …" when `pm_content_in_desktop_notifications` is off for a DM.
 * `text` is the message's plain text; the body is cut at 150 characters.
 */
export function notificationText(
  m: Pick<Message, "type" | "sender_full_name" | "subject">,
  text: string,
  streamName: string | undefined,
  settings: Readonly<Record<string, unknown>>,
): { title: string; body: string } {
  if (m.type === "private") {
    if (settings.pm_content_in_desktop_notifications === false) return { title: m.sender_full_name, body: `New direct message from ${m.sender_full_name}` };
    return { title: m.sender_full_name, body: clip(text) };
  }
  return { title: `${m.sender_full_name} (#${streamName ?? "channel"} > ${m.subject})`, body: clip(text) };
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 150 ? `${t.slice(0, 149)}…` : t;
}

/** The favicon badge's text for an unread count: none at 0, the count up to 99, "99+" beyond. */
export function faviconBadgeText(count: number): string {
  if (count <= 0) return "";
  return count > 99 ? "99+" : String(count);
}
