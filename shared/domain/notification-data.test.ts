import { describe, expect, it } from "vitest";
import {
  emailNotificationTrigger,
  isPresenceIdle,
  pushNotificationTrigger,
  userAllowsNotificationsInStreamTopic,
  userMessageNotificationsData,
  type NotificationRecipient,
  type NotificationSubscription,
} from "./notification-data.js";

const SENDER = 1;
const USER = 2;
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

const sub = (over: Partial<NotificationSubscription> = {}): NotificationSubscription => ({
  is_muted: false,
  email_notifications: null,
  push_notifications: null,
  wildcard_mentions_notify: null,
  ...over,
});

function recipient(over: Partial<NotificationRecipient> & { settings?: Record<string, unknown> } = {}): NotificationRecipient {
  const { settings = {}, ...rest } = over;
  return { flags: [], user: { user_id: USER, is_active: true, is_bot: false, settings }, ...rest };
}

/** The email trigger of a stream message for `r`, the user idle. */
const streamEmail = (r: NotificationRecipient) =>
  emailNotificationTrigger(userMessageNotificationsData({ senderId: SENDER, isPrivate: false }, r), true);
const dmEmail = (r: NotificationRecipient, idle = true) =>
  emailNotificationTrigger(userMessageNotificationsData({ senderId: SENDER, isPrivate: true }, r), idle);

describe("userMessageNotificationsData / emailNotificationTrigger", () => {
  describe("direct messages", () => {
    it("email an idle recipient", () => {
      expect(dmEmail(recipient())).toBe("private_message");
    });

    it("email nobody who is active", () => {
      expect(dmEmail(recipient(), false)).toBeUndefined();
    });

    it("never email the sender, a bot, a deactivated user, or one who has the message read (muted sender)", () => {
      expect(dmEmail({ ...recipient(), user: { user_id: SENDER, is_active: true, is_bot: false, settings: {} } })).toBeUndefined();
      expect(dmEmail({ ...recipient(), user: { user_id: USER, is_active: true, is_bot: true, settings: {} } })).toBeUndefined();
      expect(dmEmail({ ...recipient(), user: { user_id: USER, is_active: false, is_bot: false, settings: {} } })).toBeUndefined();
      expect(dmEmail(recipient({ flags: ["read"] }))).toBeUndefined();
    });

    it("follow enable_offline_email_notifications", () => {
      expect(dmEmail(recipient({ settings: { enable_offline_email_notifications: false } }))).toBeUndefined();
    });
  });

  describe("stream messages", () => {
    it("notify nobody by default without a mention", () => {
      expect(streamEmail(recipient({ subscription: sub() }))).toBeUndefined();
    });

    it("email a personal or group mention, even in a muted stream or topic", () => {
      expect(streamEmail(recipient({ flags: ["mentioned"], subscription: sub() }))).toBe("mentioned");
      expect(streamEmail(recipient({ flags: ["mentioned"], subscription: sub(), visibilityPolicy: MUTED }))).toBe("mentioned");
      expect(streamEmail(recipient({ flags: ["mentioned"], subscription: sub({ is_muted: true }) }))).toBe("mentioned");
      expect(
        streamEmail(recipient({ flags: ["mentioned"], subscription: sub(), settings: { enable_offline_email_notifications: false } })),
      ).toBeUndefined();
    });

    it("email an alert word like a mention, after one", () => {
      expect(streamEmail(recipient({ flags: ["has_alert_word"], subscription: sub() }))).toBe("alert_word");
      expect(streamEmail(recipient({ flags: ["has_alert_word", "mentioned"], subscription: sub() }))).toBe("mentioned");
    });

    it("email wildcard mentions by wildcard_mentions_notify, silenced by muting", () => {
      const flags = ["stream_wildcard_mentioned"];
      expect(streamEmail(recipient({ flags, subscription: sub() }))).toBe("stream_wildcard_mentioned");
      expect(streamEmail(recipient({ flags: ["topic_wildcard_mentioned"], subscription: sub() }))).toBe("topic_wildcard_mentioned");
      expect(streamEmail(recipient({ flags, subscription: sub(), visibilityPolicy: MUTED }))).toBeUndefined();
      expect(streamEmail(recipient({ flags, subscription: sub({ is_muted: true }) }))).toBeUndefined();
      expect(streamEmail(recipient({ flags, subscription: sub({ is_muted: true }), visibilityPolicy: UNMUTED }))).toBe(
        "stream_wildcard_mentioned",
      );
      expect(streamEmail(recipient({ flags, subscription: sub({ wildcard_mentions_notify: false }) }))).toBeUndefined();
      expect(streamEmail(recipient({ flags, subscription: sub(), settings: { wildcard_mentions_notify: false } }))).toBeUndefined();
      expect(
        streamEmail(recipient({ flags, subscription: sub({ wildcard_mentions_notify: true }), settings: { wildcard_mentions_notify: false } })),
      ).toBe("stream_wildcard_mentioned");
    });

    it("name a wildcard mention in a followed topic as such", () => {
      const r = recipient({ flags: ["stream_wildcard_mentioned"], subscription: sub(), visibilityPolicy: FOLLOWED });
      expect(streamEmail(r)).toBe("stream_wildcard_mentioned_in_followed_topic");
      const off = recipient({
        flags: ["stream_wildcard_mentioned"],
        subscription: sub({ wildcard_mentions_notify: false }),
        visibilityPolicy: FOLLOWED,
        settings: { enable_followed_topic_wildcard_mentions_notify: false, enable_followed_topic_email_notifications: false },
      });
      expect(streamEmail(off)).toBeUndefined();
    });

    it("email every message of a followed topic by enable_followed_topic_email_notifications", () => {
      expect(streamEmail(recipient({ subscription: sub(), visibilityPolicy: FOLLOWED }))).toBe("followed_topic_email_notify");
      expect(
        streamEmail(
          recipient({ subscription: sub(), visibilityPolicy: FOLLOWED, settings: { enable_followed_topic_email_notifications: false } }),
        ),
      ).toBeUndefined();
    });

    it("email every message of a stream by its email_notifications, else enable_stream_email_notifications", () => {
      expect(streamEmail(recipient({ subscription: sub({ email_notifications: true }) }))).toBe("stream_email_notify");
      expect(streamEmail(recipient({ subscription: sub(), settings: { enable_stream_email_notifications: true } }))).toBe(
        "stream_email_notify",
      );
      expect(
        streamEmail(recipient({ subscription: sub({ email_notifications: false }), settings: { enable_stream_email_notifications: true } })),
      ).toBeUndefined();
      expect(streamEmail(recipient({ subscription: sub({ email_notifications: true }), visibilityPolicy: MUTED }))).toBeUndefined();
      expect(streamEmail(recipient({ subscription: sub({ email_notifications: true, is_muted: true }) }))).toBeUndefined();
    });

    it("leave stream settings out for a mentioned user who is not subscribed", () => {
      expect(streamEmail(recipient({ settings: { enable_stream_email_notifications: true } }))).toBeUndefined();
      expect(streamEmail(recipient({ flags: ["stream_wildcard_mentioned"] }))).toBeUndefined();
      expect(streamEmail(recipient({ flags: ["mentioned"] }))).toBe("mentioned");
    });
  });
});

describe("pushNotificationTrigger", () => {
  it("pushes to idle users, and to active ones only with enable_online_push_notifications", () => {
    const data = userMessageNotificationsData({ senderId: SENDER, isPrivate: true }, recipient());
    expect(pushNotificationTrigger(data, true)).toBe("private_message");
    expect(pushNotificationTrigger(data, false)).toBe("private_message");
    const offline = userMessageNotificationsData(
      { senderId: SENDER, isPrivate: true },
      recipient({ settings: { enable_online_push_notifications: false } }),
    );
    expect(pushNotificationTrigger(offline, false)).toBeUndefined();
  });

  it("follows the push settings, not the email ones", () => {
    const r = recipient({ subscription: sub({ push_notifications: true, email_notifications: false }) });
    const data = userMessageNotificationsData({ senderId: SENDER, isPrivate: false }, r);
    expect(pushNotificationTrigger(data, true)).toBe("stream_push_notify");
    expect(emailNotificationTrigger(data, true)).toBeUndefined();
  });
});

describe("pushNotificationTrigger: Zulip's push rules", () => {
  const streamPush = (r: NotificationRecipient, idle = true) =>
    pushNotificationTrigger(userMessageNotificationsData({ senderId: SENDER, isPrivate: false }, r), idle);
  const dmPush = (r: NotificationRecipient) =>
    pushNotificationTrigger(userMessageNotificationsData({ senderId: SENDER, isPrivate: true }, r), true);

  it("push a DM, a personal or group mention and an alert word by enable_offline_push_notifications only", () => {
    expect(dmPush(recipient())).toBe("private_message");
    expect(streamPush(recipient({ flags: ["mentioned"], subscription: sub() }))).toBe("mentioned");
    expect(streamPush(recipient({ flags: ["has_alert_word"], subscription: sub() }))).toBe("alert_word");
    const off = { settings: { enable_offline_push_notifications: false } };
    expect(dmPush(recipient(off))).toBeUndefined();
    expect(streamPush(recipient({ ...off, flags: ["mentioned"], subscription: sub() }))).toBeUndefined();
    // The email setting is not the push one.
    expect(dmPush(recipient({ settings: { enable_offline_email_notifications: false } }))).toBe("private_message");
  });

  it("push personal mentions even in a muted stream or topic", () => {
    expect(streamPush(recipient({ flags: ["mentioned"], subscription: sub({ is_muted: true }) }))).toBe("mentioned");
    expect(streamPush(recipient({ flags: ["mentioned"], subscription: sub(), visibilityPolicy: MUTED }))).toBe("mentioned");
  });

  it("push wildcard mentions by the subscription's, else the personal wildcard_mentions_notify, silenced by muting", () => {
    const flags = ["stream_wildcard_mentioned"];
    expect(streamPush(recipient({ flags, subscription: sub() }))).toBe("stream_wildcard_mentioned");
    expect(streamPush(recipient({ flags: ["topic_wildcard_mentioned"], subscription: sub() }))).toBe("topic_wildcard_mentioned");
    expect(streamPush(recipient({ flags, subscription: sub({ wildcard_mentions_notify: false }) }))).toBeUndefined();
    expect(streamPush(recipient({ flags, settings: { wildcard_mentions_notify: false }, subscription: sub() }))).toBeUndefined();
    expect(
      streamPush(recipient({ flags, settings: { wildcard_mentions_notify: false }, subscription: sub({ wildcard_mentions_notify: true }) })),
    ).toBe("stream_wildcard_mentioned");
    expect(streamPush(recipient({ flags, subscription: sub({ is_muted: true }) }))).toBeUndefined();
    expect(streamPush(recipient({ flags, subscription: sub(), visibilityPolicy: MUTED }))).toBeUndefined();
    expect(streamPush(recipient({ flags, subscription: sub({ is_muted: true }), visibilityPolicy: UNMUTED }))).toBe(
      "stream_wildcard_mentioned",
    );
    expect(streamPush(recipient({ flags, subscription: sub(), visibilityPolicy: FOLLOWED }))).toBe(
      "stream_wildcard_mentioned_in_followed_topic",
    );
  });

  it("push every message of a followed topic by enable_followed_topic_push_notifications", () => {
    expect(streamPush(recipient({ subscription: sub(), visibilityPolicy: FOLLOWED }))).toBe("followed_topic_push_notify");
    expect(
      streamPush(recipient({ subscription: sub(), visibilityPolicy: FOLLOWED, settings: { enable_followed_topic_push_notifications: false } })),
    ).toBeUndefined();
  });

  it("push every message of a stream by its push_notifications, else enable_stream_push_notifications, through muting", () => {
    expect(streamPush(recipient({ subscription: sub() }))).toBeUndefined();
    expect(streamPush(recipient({ subscription: sub(), settings: { enable_stream_push_notifications: true } }))).toBe("stream_push_notify");
    expect(
      streamPush(recipient({ subscription: sub({ push_notifications: false }), settings: { enable_stream_push_notifications: true } })),
    ).toBeUndefined();
    expect(streamPush(recipient({ subscription: sub({ push_notifications: true, is_muted: true }) }))).toBeUndefined();
    expect(streamPush(recipient({ subscription: sub({ push_notifications: true }), visibilityPolicy: MUTED }))).toBeUndefined();
  });

  it("push nothing to the sender, a bot, a deactivated user or a read row (a muted sender's), idle or not", () => {
    const flags = ["mentioned"];
    const self = userMessageNotificationsData({ senderId: USER, isPrivate: true }, recipient());
    expect(pushNotificationTrigger(self, true)).toBeUndefined();
    expect(dmPush({ ...recipient(), user: { user_id: USER, is_active: true, is_bot: true, settings: {} } })).toBeUndefined();
    expect(dmPush({ ...recipient(), user: { user_id: USER, is_active: false, is_bot: false, settings: {} } })).toBeUndefined();
    expect(streamPush(recipient({ flags: [...flags, "read"], subscription: sub() }), false)).toBeUndefined();
  });

  it("push to an active user only with enable_online_push_notifications", () => {
    const r = recipient({ flags: ["mentioned"], subscription: sub() });
    expect(streamPush(r, false)).toBe("mentioned");
    expect(streamPush({ ...r, user: { ...r.user, settings: { enable_online_push_notifications: false } } }, false)).toBeUndefined();
    expect(streamPush({ ...r, user: { ...r.user, settings: { enable_online_push_notifications: false } } }, true)).toBe("mentioned");
  });
});

describe("userAllowsNotificationsInStreamTopic", () => {
  it.each([
    [false, 0, null, true, true],
    [false, 0, null, false, false],
    [false, 0, true, false, true],
    [false, 0, false, true, false],
    [false, MUTED, true, true, false],
    [true, 0, true, true, false],
    [true, UNMUTED, null, true, true],
    [true, FOLLOWED, true, true, false],
  ])("stream muted %s, policy %s, stream setting %s, personal %s → %s", (muted, policy, streamSetting, personal, expected) => {
    expect(userAllowsNotificationsInStreamTopic(muted, policy, streamSetting, personal)).toBe(expected);
  });
});

describe("isPresenceIdle", () => {
  it("counts a user without an active ping within the threshold as idle", () => {
    expect(isPresenceIdle(undefined, 1000, 200)).toBe(true);
    expect(isPresenceIdle(799, 1000, 200)).toBe(true);
    expect(isPresenceIdle(800, 1000, 200)).toBe(false);
  });
});
