import { describe, expect, it } from "vitest";
import { eventSchemaKey, validateEvent } from "./schemas.js";

const stream = {
  stream_id: 3,
  name: "general",
  description: "",
  rendered_description: "",
  date_created: 1700000000,
  creator_id: null,
  invite_only: false,
  is_web_public: false,
  stream_post_policy: 1,
  message_retention_days: null,
  history_public_to_subscribers: true,
  first_message_id: null,
  is_announcement_only: false,
  can_remove_subscribers_group: 11,
  stream_weekly_traffic: null,
};

const subscription = {
  ...stream,
  color: "#76ce90",
  is_muted: false,
  in_home_view: true,
  pin_to_top: false,
  desktop_notifications: null,
  email_notifications: null,
  wildcard_mentions_notify: null,
  push_notifications: null,
  audible_notifications: null,
};

describe("validateEvent", () => {
  it("accepts a well-formed event of each shape and returns it", () => {
    const hb = { type: "heartbeat", id: 3 };
    expect(validateEvent(hb)).toBe(hb);
    validateEvent({ type: "subscription", op: "add", id: 0, subscriptions: [subscription] });
    validateEvent({ type: "stream", op: "create", id: 1, streams: [stream] });
    validateEvent({
      type: "typing",
      op: "start",
      id: 2,
      message_type: "direct",
      sender: { user_id: 1, email: "a@x" },
      recipients: [{ user_id: 1, email: "a@x" }],
    });
  });

  it("refuses undeclared fields, also in extended (subscription) objects", () => {
    expect(() => validateEvent({ type: "heartbeat", id: 3, extra: 1 })).toThrow(/heartbeat/);
    expect(() =>
      validateEvent({ type: "subscription", op: "add", id: 0, subscriptions: [{ ...subscription, surprise: true }] }),
    ).toThrow(/subscription\/add/);
  });

  it("refuses missing fields, wrong types and unknown types", () => {
    expect(() => validateEvent({ type: "stream", op: "create", id: 1, streams: [{ ...stream, name: 5 }] })).toThrow(
      /streams\.0\.name/,
    );
    expect(() => validateEvent({ type: "presence", id: 1, user_id: 2 })).toThrow(/presence/);
    expect(() => validateEvent({ type: "no_such_event", id: 1 })).toThrow(/No schema for event type no_such_event/);
  });

  it("refuses a stream typing event that carries direct-message recipients", () => {
    expect(() =>
      validateEvent({
        type: "typing",
        op: "stop",
        id: 2,
        message_type: "stream",
        sender: { user_id: 1, email: "a@x" },
        recipients: [],
        stream_id: 3,
        topic: "t",
      }),
    ).toThrow(/typing\/stop/);
  });
});

describe("eventSchemaKey", () => {
  it("uses type/op when such a schema exists, else the type", () => {
    expect(eventSchemaKey({ type: "realm_user", op: "add" })).toBe("realm_user/add");
    expect(eventSchemaKey({ type: "message" })).toBe("message");
    expect(eventSchemaKey({ type: "delete_message", op: "whatever" })).toBe("delete_message");
  });
});
