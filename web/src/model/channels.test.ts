import { describe, expect, it } from "vitest";
import {
  applyChannelEvent,
  channelsFromRegister,
  privacyOf,
  privacyParams,
  setSubscribers,
  streamRows,
  subscriberRows,
  type ChannelState,
} from "./channels.js";
import type { ServerEvent, StreamWireObject, SubscriptionWireObject } from "./types.js";
import { ME } from "./test-fixtures.js";

function stream(stream_id: number, name: string, over: Partial<StreamWireObject> = {}): StreamWireObject {
  return {
    stream_id,
    name,
    description: "",
    rendered_description: "",
    date_created: 1,
    creator_id: null,
    invite_only: false,
    is_web_public: false,
    stream_post_policy: 1,
    message_retention_days: null,
    history_public_to_subscribers: true,
    first_message_id: null,
    is_announcement_only: false,
    can_remove_subscribers_group: 1,
    stream_weekly_traffic: null,
    ...over,
  };
}

function sub(s: StreamWireObject, over: Partial<SubscriptionWireObject> = {}): SubscriptionWireObject {
  return {
    ...s,
    color: "#76ce90",
    is_muted: false,
    in_home_view: true,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    role: 50,
    email_address: "",
    ...over,
  };
}

const general = stream(1, "general", { description: "Everyone's place" });
const design = stream(2, "Design", { description: "Logos and colours" });
const secret = stream(3, "secret", { invite_only: true });

function registered(): ChannelState {
  return channelsFromRegister({ streams: [general, design], subscriptions: [sub(general)], never_subscribed: [design] });
}

const event = (e: Record<string, unknown>) => ({ id: 1, ...e }) as unknown as ServerEvent;

describe("the channel state", () => {
  it("holds every visible stream and the reader's subscriptions from register", () => {
    const c = registered();
    expect([...c.streams.keys()]).toEqual([1, 2]);
    expect([...c.subs.keys()]).toEqual([1]);
    expect(c.subscribers.size).toBe(0);
  });

  it("keeps subscriber lists from register when it carries them", () => {
    const c = channelsFromRegister({ subscriptions: [{ ...sub(general), subscribers: [ME, 11] }], never_subscribed: [{ ...design, subscribers: [12] }] });
    expect([...c.subscribers.get(1)!]).toEqual([ME, 11]);
    expect([...c.subscribers.get(2)!]).toEqual([12]);
  });

  it("adds a subscription (a private stream the reader was added to) and the reader to its known list", () => {
    let c = setSubscribers(registered(), 3, [11]);
    c = applyChannelEvent(c, event({ type: "subscription", op: "add", subscriptions: [sub(secret)] }), ME);
    expect(c.subs.get(3)?.name).toBe("secret");
    expect(c.streams.get(3)?.invite_only).toBe(true);
    expect([...c.subscribers.get(3)!].sort()).toEqual([ME, 11].sort());
  });

  it("removes a subscription but keeps the stream visible", () => {
    const c = applyChannelEvent(registered(), event({ type: "subscription", op: "remove", subscriptions: [{ stream_id: 1, name: "general" }] }), ME);
    expect(c.subs.has(1)).toBe(false);
    expect(c.streams.has(1)).toBe(true);
  });

  it("applies personal setting updates, keeping is_muted and in_home_view opposite", () => {
    let c = applyChannelEvent(registered(), event({ type: "subscription", op: "update", stream_id: 1, property: "color", value: "#ff0000" }), ME);
    c = applyChannelEvent(c, event({ type: "subscription", op: "update", stream_id: 1, property: "in_home_view", value: false }), ME);
    c = applyChannelEvent(c, event({ type: "subscription", op: "update", stream_id: 1, property: "desktop_notifications", value: true }), ME);
    expect(c.subs.get(1)).toMatchObject({ color: "#ff0000", is_muted: true, in_home_view: false, desktop_notifications: true });
  });

  it("applies peer_add and peer_remove to known lists only", () => {
    let c = setSubscribers(registered(), 1, [ME]);
    c = applyChannelEvent(c, event({ type: "subscription", op: "peer_add", stream_ids: [1, 2], user_ids: [11, 12] }), ME);
    expect([...c.subscribers.get(1)!]).toEqual([ME, 11, 12]);
    expect(c.subscribers.has(2)).toBe(false);
    c = applyChannelEvent(c, event({ type: "subscription", op: "peer_remove", stream_ids: [1], user_ids: [11] }), ME);
    expect([...c.subscribers.get(1)!]).toEqual([ME, 12]);
  });

  it("applies stream updates to the stream and the subscription", () => {
    let c = applyChannelEvent(registered(), event({ type: "stream", op: "update", stream_id: 1, name: "general", property: "name", value: "lobby" }), ME);
    c = applyChannelEvent(
      c,
      event({ type: "stream", op: "update", stream_id: 1, name: "lobby", property: "invite_only", value: true, history_public_to_subscribers: false, is_web_public: false }),
      ME,
    );
    c = applyChannelEvent(c, event({ type: "stream", op: "update", stream_id: 1, name: "lobby", property: "stream_post_policy", value: 2 }), ME);
    expect(c.streams.get(1)).toMatchObject({ name: "lobby", invite_only: true, history_public_to_subscribers: false, stream_post_policy: 2, is_announcement_only: true });
    expect(c.subs.get(1)).toMatchObject({ name: "lobby", invite_only: true, color: "#76ce90" });
  });

  it("creates and deletes streams", () => {
    let c = applyChannelEvent(registered(), event({ type: "stream", op: "create", streams: [stream(4, "new")] }), ME);
    expect(c.streams.has(4)).toBe(true);
    c = applyChannelEvent(c, event({ type: "stream", op: "delete", streams: [general] }), ME);
    expect(c.streams.has(1)).toBe(false);
    expect(c.subs.has(1)).toBe(false);
  });
});

describe("channel lists", () => {
  it("lists subscriptions or every stream, by name", () => {
    const c = setSubscribers(registered(), 2, [11, 12]);
    expect(streamRows(c, "subscribed", "").map((r) => r.stream.name)).toEqual(["general"]);
    const all = streamRows(c, "all", "");
    expect(all.map((r) => [r.stream.name, r.sub !== undefined, r.subscriberCount])).toEqual([
      ["Design", false, 2],
      ["general", true, undefined],
    ]);
  });

  it("filters by every word in name or description, ignoring case", () => {
    const c = registered();
    expect(streamRows(c, "all", "LOGOS").map((r) => r.stream.name)).toEqual(["Design"]);
    expect(streamRows(c, "all", "everyone place").map((r) => r.stream.name)).toEqual(["general"]);
    expect(streamRows(c, "all", "everyone logos")).toEqual([]);
  });

  it("finds subscribers by name or email", () => {
    const users = new Map([
      [11, { full_name: "Iago", email: "iago@example.com" }],
      [12, { full_name: "Cordelia", email: "cordelia@example.com" }],
    ]);
    expect(subscriberRows(users, new Set([11, 12, 99]), "").map((r) => r.full_name)).toEqual(["Cordelia", "Iago", "Unknown user"]);
    expect(subscriberRows(users, new Set([11, 12]), "IAGO@").map((r) => r.user_id)).toEqual([11]);
  });
});

describe("privacy", () => {
  it("names Zulip's four kinds and their parameters", () => {
    expect(privacyOf(general)).toBe("public");
    expect(privacyOf({ ...general, is_web_public: true })).toBe("web-public");
    expect(privacyOf(secret)).toBe("private-shared");
    expect(privacyOf({ ...secret, history_public_to_subscribers: false })).toBe("private-protected");
    expect(privacyParams("private-protected")).toEqual({ is_private: true, is_web_public: false, history_public_to_subscribers: false });
    expect(privacyParams("web-public")).toEqual({ is_private: false, is_web_public: true, history_public_to_subscribers: true });
  });
});
