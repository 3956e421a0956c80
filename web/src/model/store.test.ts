import { describe, expect, it } from "vitest";
import { applyEvent, applyPresences, matchContext, registerParams, setTopics, stateFromRegister, type ChatState } from "./store.js";
import { typistsIn, streamTypingKey, dmTypingKey, TYPING_EXPIRY_MS } from "./typing.js";
import { unreadCounts } from "./unread.js";
import { directMessage, ME, messageEvent, streamMessage } from "./test-fixtures.js";
import type { ServerEvent } from "./types.js";

const sub = (stream_id: number, name: string, over: Record<string, unknown> = {}) => ({
  stream_id,
  name,
  description: "",
  invite_only: false,
  color: "#76ce90",
  is_muted: false,
  pin_to_top: false,
  ...over,
});
const user = (user_id: number, full_name: string) => ({ user_id, full_name, email: `u${user_id}@example.com`, avatar_url: null, is_active: true });

function registered(): ChatState {
  return stateFromRegister({
    queue_id: "q1",
    last_event_id: -1,
    user_id: ME,
    email: "me@example.com",
    full_name: "Me",
    realm_name: "Test",
    realm_users: [user(ME, "Me"), user(11, "Iago"), user(12, "Cordelia")],
    streams: [sub(1, "general"), sub(2, "random")],
    subscriptions: [sub(1, "general"), sub(2, "random", { is_muted: true })],
    user_topics: [{ stream_id: 1, topic_name: "Noise", visibility_policy: 1, last_updated: 1 }],
    presences: { "11": { active_timestamp: 1000, idle_timestamp: 1010 } },
    unread_msgs: {
      pms: [{ other_user_id: 11, sender_id: 11, unread_message_ids: [1] }],
      huddles: [],
      streams: [
        { stream_id: 1, topic: "lunch", unread_message_ids: [2] },
        { stream_id: 2, topic: "x", unread_message_ids: [3] },
      ],
      mentions: [],
      old_unreads_missing: false,
    },
    starred_messages: [2],
    user_settings: { enter_sends: true },
  });
}

const total = (s: ChatState) => unreadCounts(s.unread, matchContext(s)).total;
const ev = (e: Record<string, unknown>) => ({ id: 5, ...e }) as unknown as ServerEvent;

describe("stateFromRegister", () => {
  it("reads identity, people, subscriptions, muting, presence, unread, starred and settings", () => {
    const s = registered();
    expect(s).toMatchObject({ queueId: "q1", lastEventId: -1, me: { user_id: ME, full_name: "Me" }, realm: { name: "Test" } });
    expect(s.users.get(11)?.full_name).toBe("Iago");
    expect(s.subscriptions.get(2)?.is_muted).toBe(true);
    expect(matchContext(s).topicPolicy(1, "noise")).toBe(1);
    expect(s.presence.get(11)).toEqual({ active_timestamp: 1000, idle_timestamp: 1010 });
    expect(total(s)).toBe(2);
    expect([...s.starred]).toEqual([2]);
    expect(s.settings.enter_sends).toBe(true);
  });
});

describe("applyEvent", () => {
  it("counts a new message as unread, moves its topic to the top, and records the event ID", () => {
    let s = setTopics(registered(), 1, [
      { name: "old", max_id: 5 },
      { name: "lunch", max_id: 8 },
    ]);
    s = applyEvent(s, messageEvent(streamMessage(20, { subject: "old" }), 7), 0);
    expect(s.lastEventId).toBe(7);
    expect(total(s)).toBe(3);
    expect(s.topics.get(1)).toEqual([
      { name: "old", max_id: 20 },
      { name: "lunch", max_id: 8 },
    ]);
    const own = applyEvent(s, messageEvent(directMessage(21, ME, [12], { flags: ["read"] }), 8), 0);
    expect(total(own)).toBe(3);
    expect(own.recentConversations.get("12")).toBe(21);
  });

  it("follows read flags added and removed, deletions and moves", () => {
    let s = applyEvent(registered(), ev({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [1, 2], all: false }), 0);
    expect(total(s)).toBe(0);
    s = applyEvent(
      s,
      ev({
        type: "update_message_flags",
        op: "remove",
        operation: "remove",
        flag: "read",
        messages: [2],
        all: false,
        message_details: { "2": { type: "stream", stream_id: 1, topic: "lunch" } },
      }),
      0,
    );
    expect(total(s)).toBe(1);
    const moved = applyEvent(
      s,
      ev({ type: "update_message", user_id: 11, rendering_only: false, message_id: 2, message_ids: [2], flags: [], edit_timestamp: 1, stream_id: 1, new_stream_id: 2, orig_subject: "lunch", subject: "x" }),
      0,
    );
    // Moved into a muted stream: out of the combined count, still in the stream's.
    expect(total(moved)).toBe(0);
    expect(unreadCounts(moved.unread, matchContext(moved)).byStream.get(2)).toBe(2);
    const deleted = applyEvent(s, ev({ type: "delete_message", message_ids: [2], message_type: "stream" }), 0);
    expect(total(deleted)).toBe(0);
    expect(deleted.starred.has(2)).toBe(false);
  });

  it("follows starring", () => {
    const s = applyEvent(registered(), ev({ type: "update_message_flags", op: "add", operation: "add", flag: "starred", messages: [9], all: false }), 0);
    expect([...s.starred].sort()).toEqual([2, 9]);
  });

  it("adds, updates and removes subscriptions", () => {
    let s = applyEvent(registered(), ev({ type: "subscription", op: "add", subscriptions: [sub(3, "design")] }), 0);
    expect(s.subscriptions.get(3)?.name).toBe("design");
    expect(s.streams.get(3)?.name).toBe("design");
    s = applyEvent(s, ev({ type: "subscription", op: "update", stream_id: 3, property: "pin_to_top", value: true }), 0);
    s = applyEvent(s, ev({ type: "subscription", op: "update", stream_id: 3, property: "in_home_view", value: false }), 0);
    expect(s.subscriptions.get(3)).toMatchObject({ pin_to_top: true, is_muted: true });
    s = applyEvent(s, ev({ type: "subscription", op: "peer_add", stream_ids: [3], user_ids: [12] }), 0);
    s = applyEvent(s, ev({ type: "subscription", op: "remove", subscriptions: [{ stream_id: 3, name: "design" }] }), 0);
    expect(s.subscriptions.has(3)).toBe(false);
  });

  it("muting a stream takes its unread out of the combined count", () => {
    const s = applyEvent(registered(), ev({ type: "subscription", op: "update", stream_id: 1, property: "is_muted", value: true }), 0);
    expect(total(s)).toBe(1);
  });

  it("renames and deletes streams", () => {
    let s = applyEvent(registered(), ev({ type: "stream", op: "update", stream_id: 1, name: "general", property: "name", value: "lobby" }), 0);
    expect(s.streams.get(1)?.name).toBe("lobby");
    expect(s.subscriptions.get(1)?.name).toBe("lobby");
    s = applyEvent(s, ev({ type: "stream", op: "delete", streams: [{ ...sub(1, "lobby") }] }), 0);
    expect(s.streams.has(1)).toBe(false);
    expect(s.subscriptions.has(1)).toBe(false);
  });

  it("adds, renames and removes people", () => {
    let s = applyEvent(registered(), ev({ type: "realm_user", op: "add", person: user(13, "Hamlet") }), 0);
    s = applyEvent(s, ev({ type: "realm_user", op: "update", person: { user_id: 13, full_name: "Prince Hamlet" } }), 0);
    expect(s.users.get(13)?.full_name).toBe("Prince Hamlet");
    s = applyEvent(s, ev({ type: "realm_user", op: "update", person: { user_id: ME, full_name: "New Me" } }), 0);
    expect(s.me.full_name).toBe("New Me");
    s = applyEvent(s, ev({ type: "realm_user", op: "remove", person: { user_id: 13, full_name: "Prince Hamlet" } }), 0);
    expect(s.users.has(13)).toBe(false);
  });

  it("updates presence from events", () => {
    const s = applyEvent(
      registered(),
      ev({ type: "presence", user_id: 12, server_timestamp: 2000, presence: { website: { client: "website", status: "active", timestamp: 1990, pushable: false } } }),
      0,
    );
    expect(s.presence.get(12)).toEqual({ active_timestamp: 1990, idle_timestamp: 1990 });
  });

  it("keeps a typing notice for the server's announced expiry period when register gives one", () => {
    const s0 = { ...registered(), realmSettings: { server_typing_started_expiry_period_milliseconds: 45_000 } };
    const start = ev({ type: "typing", op: "start", message_type: "stream", sender: { user_id: 11, email: "u11@example.com" }, stream_id: 1, topic: "Lunch" });
    const s = applyEvent(s0, start, 1000);
    const key = streamTypingKey(1, "lunch");
    expect(typistsIn(s.typing, key, 1000 + TYPING_EXPIRY_MS)).toEqual([11]);
    expect(typistsIn(s.typing, key, 1000 + 45_000)).toEqual([]);
  });

  it("keeps the organization's settings and the reader's settings from register and their events", () => {
    let s = stateFromRegister({ queue_id: "q", last_event_id: -1, user_id: ME, realm_name: "Old", realm_waiting_period_threshold: 3, max_file_upload_size_mib: 4, realm_users: [], user_settings: { enter_sends: true, color_scheme: 1 } });
    expect(s.realmSettings).toEqual({ realm_name: "Old", realm_waiting_period_threshold: 3, max_file_upload_size_mib: 4 });
    s = applyEvent(s, ev({ type: "realm", op: "update", property: "waiting_period_threshold", value: 10 }), 0);
    s = applyEvent(s, ev({ type: "realm", op: "update_dict", property: "default", data: { name: "New", description: "Hi" } }), 0);
    s = applyEvent(s, ev({ type: "realm", op: "update_dict", property: "icon", data: { icon_url: "/i.png", icon_source: "U" } }), 0);
    s = applyEvent(s, ev({ type: "user_settings", op: "update", property: "color_scheme", value: 2 }), 0);
    expect(s.realmSettings).toMatchObject({ realm_name: "New", realm_description: "Hi", realm_waiting_period_threshold: 10, realm_icon_url: "/i.png", realm_icon_source: "U" });
    expect(s.realm.name).toBe("New");
    expect(s.userSettings).toEqual({ enter_sends: true, color_scheme: 2 });
  });

  it("shows typing until stop, expiry, or the typist's message", () => {
    const start = ev({ type: "typing", op: "start", message_type: "stream", sender: { user_id: 11, email: "u11@example.com" }, stream_id: 1, topic: "Lunch" });
    let s = applyEvent(registered(), start, 1000);
    const key = streamTypingKey(1, "lunch");
    expect(typistsIn(s.typing, key, 1000)).toEqual([11]);
    expect(typistsIn(s.typing, key, 1000 + TYPING_EXPIRY_MS)).toEqual([]);
    s = applyEvent(s, messageEvent(streamMessage(30, { subject: "lunch" })), 2000);
    expect(typistsIn(s.typing, key, 2000)).toEqual([]);
    const dm = ev({ type: "typing", op: "start", message_type: "direct", sender: { user_id: 12, email: "x" }, recipients: [{ user_id: ME, email: "y" }, { user_id: 12, email: "x" }] });
    s = applyEvent(s, dm, 0);
    expect(typistsIn(s.typing, dmTypingKey("12"), 0)).toEqual([12]);
    s = applyEvent(s, { ...dm, op: "stop" } as ServerEvent, 0);
    expect(typistsIn(s.typing, dmTypingKey("12"), 0)).toEqual([]);
    const own = applyEvent(s, { ...dm, sender: { user_id: ME, email: "y" } } as ServerEvent, 0);
    expect(own.typing).toBe(s.typing);
  });

  it("follows enter_sends and topic muting; ignores heartbeats but records their ID", () => {
    let s = applyEvent(registered(), ev({ type: "user_settings", op: "update", property: "enter_sends", value: false }), 0);
    expect(s.settings.enter_sends).toBe(false);
    s = applyEvent(s, ev({ type: "user_topic", stream_id: 1, topic_name: "lunch", last_updated: 1, visibility_policy: 1 }), 0);
    expect(total(s)).toBe(1);
    const beat = applyEvent(s, { id: 42, type: "heartbeat" }, 0);
    expect(beat.lastEventId).toBe(42);
    expect(beat.unread).toBe(s.unread);
  });

  describe("applyPresences", () => {
    it("merges a presence answer keyed by user ID, never moving a timestamp back", () => {
      const state = registered();
      const next = applyPresences(state, {
        "11": { active_timestamp: 900, idle_timestamp: 2000 },
        "12": { active_timestamp: 1500, idle_timestamp: 1500 },
        bogus: { active_timestamp: 1, idle_timestamp: 1 },
      });
      expect(next.presence.get(11)).toEqual({ active_timestamp: 1000, idle_timestamp: 2000 });
      expect(next.presence.get(12)).toEqual({ active_timestamp: 1500, idle_timestamp: 1500 });
      expect(next.presence.size).toBe(2);
      expect(state.presence.get(11)).toEqual({ active_timestamp: 1000, idle_timestamp: 1010 });
    });
  });

  describe("registerParams", () => {
    it("declares the stream typing capability, without which the server sends no typing events for topics", () => {
      expect(registerParams().client_capabilities).toMatchObject({ stream_typing_notifications: true, bulk_message_deletion: true });
      expect(registerParams()).toMatchObject({ apply_markdown: true, slim_presence: true });
      expect(registerParams().event_types).toEqual(expect.arrayContaining(["message", "update_message", "delete_message", "reaction", "typing", "presence"]));
    });
  });
});
