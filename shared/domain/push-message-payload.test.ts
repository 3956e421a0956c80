import { describe, expect, it } from "vitest";
import { mobilePushContent, truncatePushContent } from "./push-message-html.js";
import {
  apnsAlertSubtitle,
  mentionedUserGroupOf,
  messagePushPayloads,
  personalMentionIds,
  type PushMessage,
  type PushMessageContext,
} from "./push-message-payload.js";
import type { BasePushPayload } from "./push-payload.js";

const base: BasePushPayload = {
  server: "zulip.example.com",
  realm_id: 4,
  realm_uri: "https://acme.zulip.example.com",
  realm_url: "https://acme.zulip.example.com",
  realm_name: "Acme",
  user_id: 12,
};

const sender = {
  sender_id: 10,
  sender_email: "user10@acme.zulip.example.com",
  sender_full_name: "Alice Smith",
  sender_avatar_url: "https://acme.zulip.example.com/user_avatars/4/a.png?version=2",
};

const streamMessage: PushMessage = {
  id: 501,
  recipient_type: "stream",
  stream_id: 7,
  topic: "lunch",
  ...sender,
  timestamp: 1_700_000_000,
  rendered_content: "<p>Pizza <strong>today</strong>?</p>",
};

const oneToOne: PushMessage = {
  id: 502,
  recipient_type: "private",
  topic: "",
  dm_user_ids: [10, 12],
  participants: [
    { id: 10, full_name: "Alice Smith" },
    { id: 12, full_name: "Bob" },
  ],
  ...sender,
  timestamp: 1_700_000_001,
  rendered_content: "<p>hi</p>",
};

const groupDm: PushMessage = {
  ...oneToOne,
  id: 503,
  dm_user_ids: [12, 30, 10],
  participants: [
    { id: 10, full_name: "Alice Smith" },
    { id: 12, full_name: "Bob" },
    { id: 30, full_name: "Carol" },
  ],
};

describe("messagePushPayloads", () => {
  it("describes a stream message for APNs and FCM as Zulip does", () => {
    const context: PushMessageContext = { streamName: "food", trigger: "mentioned" };
    const { apns, gcm, gcmOptions } = messagePushPayloads(base, streamMessage, context);
    const payload = {
      ...base,
      sender_id: 10,
      sender_email: "user10@acme.zulip.example.com",
      time: 1_700_000_000,
      recipient_type: "stream",
      stream: "food",
      stream_id: 7,
      topic: "lunch",
    };
    expect(apns).toEqual({
      alert: { title: "#food > lunch", subtitle: "Alice Smith mentioned you:", body: "Pizza today?" },
      sound: "default",
      badge: 0,
      custom: { zulip: { ...payload, message_ids: [501] } },
    });
    expect(gcm).toEqual({
      ...payload,
      event: "message",
      zulip_message_id: 501,
      content: "Pizza today?",
      content_truncated: false,
      sender_full_name: "Alice Smith",
      sender_avatar_url: sender.sender_avatar_url,
    });
    expect(gcmOptions).toEqual({ priority: "high" });
  });

  it("titles a 1:1 DM by the sender, without a subtitle or pm_users", () => {
    const { apns, gcm } = messagePushPayloads(base, oneToOne, { trigger: "private_message" });
    expect(apns.alert).toEqual({ title: "Alice Smith", subtitle: "", body: "hi" });
    expect(gcm).toMatchObject({ recipient_type: "private", zulip_message_id: 502 });
    expect(gcm).not.toHaveProperty("pm_users");
    expect(gcm).not.toHaveProperty("stream");
  });

  it("titles a group DM by everyone's sorted names and lists the sorted user IDs in pm_users", () => {
    const { apns, gcm } = messagePushPayloads(base, groupDm, { trigger: "private_message" });
    expect(apns.alert).toEqual({ title: "Alice Smith, Bob, Carol", subtitle: "Alice Smith:", body: "hi" });
    expect(gcm).toMatchObject({ recipient_type: "private", pm_users: "10,12,30" });
    expect((apns.custom as { zulip: Record<string, unknown> }).zulip).toMatchObject({ pm_users: "10,12,30", message_ids: [503] });
  });

  it("names the group whose mention notified the user", () => {
    const context = { streamName: "food", trigger: "mentioned", mentionedUserGroup: { id: 33, name: "support" } };
    const { apns, gcm } = messagePushPayloads(base, streamMessage, context);
    expect(gcm).toMatchObject({ mentioned_user_group_id: 33, mentioned_user_group_name: "support" });
    expect((apns.alert as { subtitle: string }).subtitle).toBe("Alice Smith mentioned @support:");
  });
});

describe("apnsAlertSubtitle", () => {
  it("says why, per trigger", () => {
    const s = (message: PushMessage, trigger: string) => apnsAlertSubtitle(message, { streamName: "food", trigger });
    expect(s(streamMessage, "mentioned")).toBe("Alice Smith mentioned you:");
    for (const t of [
      "stream_wildcard_mentioned",
      "topic_wildcard_mentioned",
      "stream_wildcard_mentioned_in_followed_topic",
      "topic_wildcard_mentioned_in_followed_topic",
    ]) {
      expect(s(streamMessage, t)).toBe("Alice Smith mentioned everyone:");
    }
    expect(s(streamMessage, "stream_push_notify")).toBe("Alice Smith:");
    expect(s(streamMessage, "followed_topic_push_notify")).toBe("Alice Smith:");
    expect(s(streamMessage, "alert_word")).toBe("Alice Smith:");
    expect(s(oneToOne, "private_message")).toBe("");
    expect(s(groupDm, "private_message")).toBe("Alice Smith:");
  });
});

describe("mobilePushContent", () => {
  it("turns emoji into their character and custom emoji and images into their alt text", () => {
    const html =
      '<p>hi <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> ' +
      '<span aria-label="flag us" class="emoji emoji-1f1fa-1f1f8" role="img" title="flag us">:flag_us:</span> ' +
      '<img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>';
    expect(mobilePushContent(html)).toBe("hi 🙂 🇺🇸 :green_tick:");
  });

  it("quotes block quotes line by line", () => {
    expect(mobilePushContent("<blockquote>\n<p>quoted<br>\ntwo</p>\n</blockquote>\n<p>after</p>")).toBe("> quoted\n> two\n\nafter");
  });

  it("numbers ordered lists from their start, nested ones indented", () => {
    const html = "<ol>\n<li>a</li>\n<li>b<ol>\n<li>c</li>\n</ol>\n</li>\n</ol>\n<p>after</p>";
    expect(mobilePushContent(html)).toBe("1. a\n2. b\n  1. c\nafter");
    expect(mobilePushContent('<ol start="3">\n<li>x</li>\n<li>y</li>\n</ol>')).toBe("3. x\n4. y");
  });

  it("hides a spoiler's content behind its header", () => {
    const spoiler = (header: string) =>
      `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>\n<p>after</p>`;
    expect(mobilePushContent(spoiler("<p>Header</p>\n"))).toBe("Header (…)\nafter");
    expect(mobilePushContent(spoiler(""))).toBe("(…)\nafter");
  });

  it("sends math as its LaTeX source", () => {
    const html =
      '<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>' +
      '<annotation encoding="application/x-tex">x^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base">x2</span></span></span> inline</p>';
    expect(mobilePushContent(html)).toBe("$$x^2$$ inline");
  });

  it("keeps mentions, stream links and links as their text, entities decoded", () => {
    const html =
      '<p><span class="user-mention" data-user-id="12">@Full Name</span> and <a href="https://x.y">link</a> &amp; &lt;b&gt; <code>code</code> ' +
      '<a class="stream" data-stream-id="5" href="/#narrow/stream/5-Verona">#Verona</a></p>';
    expect(mobilePushContent(html)).toBe("@Full Name and link & <b> code #Verona");
  });
});

describe("truncatePushContent", () => {
  it("cuts after 200 characters with an ellipsis, counting code points", () => {
    expect(truncatePushContent("a".repeat(200))).toEqual({ content: "a".repeat(200), truncated: false });
    expect(truncatePushContent("a".repeat(201))).toEqual({ content: `${"a".repeat(200)}…`, truncated: true });
    const emoji = "🙂".repeat(201);
    expect(truncatePushContent(emoji)).toEqual({ content: `${"🙂".repeat(200)}…`, truncated: true });
  });

  it("truncates a long message's text in both payloads", () => {
    const long = { ...streamMessage, rendered_content: `<p>${"word ".repeat(60)}</p>` };
    const { apns, gcm } = messagePushPayloads(base, long, { streamName: "food", trigger: "stream_push_notify" });
    expect(gcm.content).toBe(`${"word ".repeat(40)}…`);
    expect(gcm.content_truncated).toBe(true);
    expect((apns.alert as { body: string }).body).toBe(`${"word ".repeat(40)}…`);
  });
});

describe("mentionedUserGroupOf", () => {
  const groups = [
    { id: 1, name: "everyone-ish", memberIds: [12, 13, 14] },
    { id: 2, name: "small", memberIds: [12, 13] },
    { id: 3, name: "other", memberIds: [14] },
  ];
  it("picks the smallest mentioned group the user is in, none when personally mentioned", () => {
    expect(mentionedUserGroupOf(12, new Set(), groups)).toEqual({ id: 2, name: "small" });
    expect(mentionedUserGroupOf(14, new Set(), groups)).toEqual({ id: 3, name: "other" });
    expect(mentionedUserGroupOf(12, new Set([12]), groups)).toBeUndefined();
    expect(mentionedUserGroupOf(99, new Set(), groups)).toBeUndefined();
  });

  it("reads personal, non-silent mentions from the rendered content", () => {
    const html =
      '<p><span class="user-mention" data-user-id="12">@A</span> <span class="user-mention silent" data-user-id="13">B</span> ' +
      '<span class="user-mention" data-user-id="*">@all</span></p>';
    expect([...personalMentionIds(html)]).toEqual([12]);
  });
});
