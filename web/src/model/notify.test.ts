import { describe, expect, it } from "vitest";
import { directMessage, ME, streamMessage } from "./test-fixtures.js";
import { faviconBadgeText, notificationText, notifyDecision, type NotifyContext } from "./notify.js";

const defaults = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  wildcard_mentions_notify: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  notification_sound: "zulip",
  pm_content_in_desktop_notifications: true,
};

function ctx(over: Partial<NotifyContext> = {}, settings: Record<string, unknown> = {}): NotifyContext {
  return {
    myUserId: ME,
    settings: { ...defaults, ...settings },
    subscription: { is_muted: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null },
    topicPolicy: 0,
    senderMuted: false,
    inFocusedView: false,
    ...over,
  };
}

describe("notifyDecision", () => {
  it("notifies for a direct message, a mention and an alert word, with sound", () => {
    expect(notifyDecision(directMessage(1, 11), ctx({ subscription: undefined }))).toEqual({ desktop: true, sound: true, reason: "direct" });
    expect(notifyDecision(streamMessage(2, { flags: ["mentioned"] }), ctx())).toEqual({ desktop: true, sound: true, reason: "mention" });
    expect(notifyDecision(streamMessage(3, { flags: ["has_alert_word"] }), ctx())).toMatchObject({ desktop: true, reason: "alert_word" });
  });

  it("leaves out an ordinary stream message unless the stream or a followed topic asks for it", () => {
    expect(notifyDecision(streamMessage(1), ctx())).toEqual({ desktop: false, sound: false, reason: null });
    expect(notifyDecision(streamMessage(1), ctx({}, { enable_stream_desktop_notifications: true }))).toEqual({ desktop: true, sound: false, reason: "stream" });
    const perStream = ctx({ subscription: { is_muted: false, desktop_notifications: false, audible_notifications: true } }, { enable_stream_desktop_notifications: true });
    expect(notifyDecision(streamMessage(1), perStream)).toEqual({ desktop: false, sound: true, reason: "stream" });
    expect(notifyDecision(streamMessage(1), ctx({ topicPolicy: 3 }))).toEqual({ desktop: true, sound: true, reason: "followed" });
  });

  it("notifies for wildcard mentions per the user's and the stream's setting", () => {
    const m = streamMessage(1, { flags: ["stream_wildcard_mentioned"] });
    expect(notifyDecision(m, ctx()).reason).toBe("wildcard");
    expect(notifyDecision(m, ctx({}, { wildcard_mentions_notify: false })).desktop).toBe(false);
    const streamOn = ctx({ subscription: { is_muted: false, wildcard_mentions_notify: true } }, { wildcard_mentions_notify: false });
    expect(notifyDecision(m, streamOn).desktop).toBe(true);
  });

  it("follows the desktop and sound switches and the chosen sound", () => {
    const dm = directMessage(1, 11);
    expect(notifyDecision(dm, ctx({}, { enable_desktop_notifications: false }))).toEqual({ desktop: false, sound: true, reason: "direct" });
    expect(notifyDecision(dm, ctx({}, { enable_sounds: false }))).toEqual({ desktop: true, sound: false, reason: "direct" });
    expect(notifyDecision(dm, ctx({}, { notification_sound: "none" })).sound).toBe(false);
  });

  it("never notifies for one's own, read, muted-sender or focused messages, nor in a muted topic", () => {
    const mention = streamMessage(1, { flags: ["mentioned"] });
    expect(notifyDecision(directMessage(1, ME, [11]), ctx()).desktop).toBe(false);
    expect(notifyDecision(directMessage(1, 11, [], { flags: ["read"] }), ctx()).desktop).toBe(false);
    expect(notifyDecision(directMessage(1, 11), ctx({ senderMuted: true })).desktop).toBe(false);
    expect(notifyDecision(directMessage(1, 11), ctx({ inFocusedView: true })).desktop).toBe(false);
    expect(notifyDecision(mention, ctx({ topicPolicy: 1 })).desktop).toBe(false);
  });

  it("in a muted stream, notifies only for mentions by name or an unmuted topic", () => {
    const muted = { is_muted: true };
    expect(notifyDecision(streamMessage(1, { flags: ["mentioned"] }), ctx({ subscription: muted })).desktop).toBe(true);
    expect(notifyDecision(streamMessage(1, { flags: ["stream_wildcard_mentioned"] }), ctx({ subscription: muted })).desktop).toBe(false);
    expect(notifyDecision(streamMessage(1, { flags: ["has_alert_word"] }), ctx({ subscription: muted, topicPolicy: 2 })).desktop).toBe(true);
  });
});

describe("notificationText", () => {
  it("names the sender and place; hides a DM's content when the setting says so", () => {
    const m = streamMessage(1, { sender_full_name: "Iago" });
    expect(notificationText(m, "hello   there", "general", {})).toEqual({ title: "Iago (#general > lunch)", body: "hello there" });
    const dm = directMessage(2, 11, [], { sender_full_name: "Iago" });
    expect(notificationText(dm, "secret", undefined, { pm_content_in_desktop_notifications: false })).toEqual({ title: "Iago", body: "New direct message from Iago" });
    expect(notificationText(dm, "x".repeat(200), undefined, {}).body).toHaveLength(150);
  });
});

describe("faviconBadgeText", () => {
  it("shows nothing at zero, the count up to 99, then 99+", () => {
    expect(faviconBadgeText(0)).toBe("");
    expect(faviconBadgeText(7)).toBe("7");
    expect(faviconBadgeText(99)).toBe("99");
    expect(faviconBadgeText(100)).toBe("99+");
  });
});
