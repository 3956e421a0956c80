import { describe, expect, it } from "vitest";
import { gravatarUrl } from "../domain/avatar.js";
import type { LogItem } from "../data/records/event-queue.js";

import { eventsForQueue, isClientComputableGravatar, type DeliveryQueue } from "./delivery.js";
import { PUBLIC_STREAM_MARKER } from "./publish.js";

function queue(overrides: Partial<DeliveryQueue> = {}): DeliveryQueue {
  return {
    queue_id: "q1",
    user_id: 7,
    user_email: "me@x.com",
    event_types: null,
    narrow: [],
    all_public_streams: false,
    apply_markdown: false,
    client_gravatar: true,
    slim_presence: false,
    client_name: "test",
    capabilities: {
      notification_settings_null: false,
      bulk_message_deletion: false,
      user_avatar_url_field_optional: false,
      stream_typing_notifications: false,
      user_settings_object: false,
      linkifier_url_template: false,
      user_list_incomplete: false,
    },
    ...overrides,
  };
}

const item = (event: Record<string, unknown>, extra: Partial<LogItem> = {}): LogItem => ({
  key: "1700000000000#aa",
  event: event as LogItem["event"],
  ...extra,
});

const messageEvent = {
  type: "message",
  message: {
    id: 5,
    type: "stream",
    display_recipient: "general",
    subject: "t",
    sender_email: "s@x.com",
    avatar_url: gravatarUrl("s@x.com", 1),
    content: "<p><strong>hi</strong></p>",
    content_type: "text/html",
  },
  raw_content: "**hi**",
  local_id: "L1",
  sender_queue_id: "q1",
};

describe("eventsForQueue", () => {
  it("finalizes message events per queue: markdown, gravatar, local_id, flags", () => {
    const [mine] = eventsForQueue(queue(), item(messageEvent, { flags: ["read"] }), "U");
    expect(mine).toEqual({
      type: "message",
      flags: ["read"],
      local_message_id: "L1",
      local_id: "L1",
      message: { ...messageEvent.message, content: "**hi**", content_type: "text/x-markdown", avatar_url: null },
    });
    const [theirs] = eventsForQueue(
      queue({ queue_id: "q2", apply_markdown: true, client_gravatar: false }),
      item(messageEvent),
      "U",
    );
    expect(theirs).toEqual({ type: "message", flags: [], message: messageEvent.message });
  });

  it("leaves a user-log copy of a public-stream message to queues reading the realm log", () => {
    const copy = item({ ...messageEvent, [PUBLIC_STREAM_MARKER]: true }, { flags: [] });
    expect(eventsForQueue(queue(), copy, "U")).toHaveLength(1);
    expect(eventsForQueue(queue({ all_public_streams: true }), copy, "U")).toEqual([]);
    const realmCopy = item(messageEvent, { flags_by_user: { "7": ["mentioned"] } });
    expect(eventsForQueue(queue({ all_public_streams: true }), realmCopy, "R")[0]).toMatchObject({ flags: ["mentioned"] });
  });

  it("splits delete_message for clients without bulk_message_deletion", () => {
    const event = { type: "delete_message", message_ids: [1, 2], message_type: "private" };
    expect(eventsForQueue(queue(), item(event), "U")).toEqual([
      { type: "delete_message", message_id: 1, message_type: "private" },
      { type: "delete_message", message_id: 2, message_type: "private" },
    ]);
    const bulk = queue({ capabilities: { ...queue().capabilities, bulk_message_deletion: true } });
    expect(eventsForQueue(bulk, item(event), "U")).toEqual([event]);
  });

  it("drops the email of presence events for slim_presence queues", () => {
    const event = { type: "presence", user_id: 3, email: "u@x.com", server_timestamp: 1, presence: {} };
    expect(eventsForQueue(queue({ slim_presence: true }), item(event), "U")).toEqual([
      { type: "presence", user_id: 3, server_timestamp: 1, presence: {} },
    ]);
    expect(eventsForQueue(queue(), item(event), "U")).toEqual([event]);
  });

  it("adds legacy settings events, also for a queue asking only for the legacy type", () => {
    const event = { type: "user_settings", op: "update", property: "default_language", value: "de", language_name: "Deutsch" };
    const legacy = {
      type: "update_display_settings",
      user: "me@x.com",
      setting_name: "default_language",
      setting: "de",
      language_name: "Deutsch",
    };
    expect(eventsForQueue(queue(), item(event), "U")).toEqual([event, legacy]);
    expect(eventsForQueue(queue({ event_types: ["update_display_settings"] }), item(event), "U")).toEqual([legacy]);
    const modern = queue({ capabilities: { ...queue().capabilities, user_settings_object: true } });
    expect(eventsForQueue(modern, item(event), "U")).toEqual([event]);
  });

  it("delivers stream typing only with the stream_typing_notifications capability", () => {
    const event = { type: "typing", op: "start", message_type: "stream", stream_id: 1, topic: "t", sender: {} };
    expect(eventsForQueue(queue(), item(event), "U")).toEqual([]);
    const capable = queue({ capabilities: { ...queue().capabilities, stream_typing_notifications: true } });
    expect(eventsForQueue(capable, item(event), "U")).toEqual([event]);
  });
});

describe("isClientComputableGravatar", () => {
  it("is true only for the gravatar of exactly that email", () => {
    expect(isClientComputableGravatar(gravatarUrl("A@x.com", 3), "a@x.com")).toBe(true);
    expect(isClientComputableGravatar(gravatarUrl("a@x.com", 3), "user9@x.com")).toBe(false);
    expect(isClientComputableGravatar("https://example.com/avatar.png", "a@x.com")).toBe(false);
    expect(isClientComputableGravatar(null, "a@x.com")).toBe(false);
  });
});
