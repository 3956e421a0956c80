import { describe, expect, it } from "vitest";
import { ApiError, type ApiClient } from "../api/client.js";
import { Chat, PRESENCE_PING_MS, type ChatClock } from "./chat.js";
import { shownMessages } from "./messages.js";
import { ME, messageEvent, streamMessage } from "./test-fixtures.js";

const register = (queue_id: string) => ({
  result: "success",
  queue_id,
  last_event_id: -1,
  user_id: ME,
  email: "me@example.com",
  full_name: "Me",
  realm_users: [],
  subscriptions: [{ stream_id: 1, name: "general", description: "", invite_only: false, color: "#fff", is_muted: false, pin_to_top: false }],
  unread_msgs: { pms: [], huddles: [], streams: [], mentions: [] },
});

/**
 * A fake server for the controller: `POST /register` and `GET /messages`
 * answer at once; `GET /events` waits for the test to push events (or an
 * error); every call is recorded.
 */
function server() {
  const calls: { method: string; path: string; params: Record<string, unknown> }[] = [];
  let registrations = 0;
  const polls: { resolve(v: unknown): void; reject(e: unknown): void }[] = [];
  const api: ApiClient = {
    call<T>(method: string, path: string, params: Record<string, unknown> = {}) {
      calls.push({ method, path, params });
      if (path === "/register") return Promise.resolve(register(`q${++registrations}`) as T);
      if (path === "/messages" && method === "GET") {
        return Promise.resolve({ result: "success", messages: [streamMessage(5, { flags: ["read"] })], found_oldest: true, found_newest: true } as T);
      }
      if (path === "/events") return new Promise<T>((resolve, reject) => polls.push({ resolve: resolve as (v: unknown) => void, reject }));
      return Promise.resolve({ result: "success", id: 99 } as T);
    },
  };
  const clock: ChatClock = { now: () => 1_700_000_000_000, sleep: async () => undefined, schedule: () => undefined, random: () => 0 };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { api, clock, calls, polls, settle };
}

describe("Chat", () => {
  it("registers, fetches the open view, and replaces a sent message's local echo with the server's copy", async () => {
    const s = server();
    const chat = new Chat(s.api, { kind: "narrow", terms: [{ operator: "channel", operand: 1 }, { operator: "topic", operand: "lunch" }] }, s.clock);
    chat.start();
    await s.settle();
    // The first page is asked for together with the queue; once the queue exists, what came after its newest message.
    expect(s.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(["GET /events", "GET /messages", "GET /messages", "POST /register"]);
    expect(s.calls.slice(0, 2).map((c) => `${c.method} ${c.path}`)).toEqual(["POST /register", "GET /messages"]);
    const narrow = [{ operator: "channel", operand: 1 }, { operator: "topic", operand: "lunch" }];
    expect(s.calls[1]!.params).toMatchObject({ anchor: "first_unread", narrow });
    expect(s.calls.filter((c) => c.path === "/messages")[1]!.params).toMatchObject({ anchor: 5, num_before: 0, include_anchor: false, narrow });

    const sending = chat.send({ type: "stream", stream_id: 1, topic: "lunch" }, "hi <b>");
    const echo = shownMessages(chat.snapshot.list).at(-1)!;
    expect(echo).toMatchObject({ local_id: "5.001", content: "<p>hi &#60;b&#62;</p>", sender_id: ME });
    await sending;
    expect(s.calls.at(-1)).toEqual({
      method: "POST",
      path: "/messages",
      params: { type: "stream", to: 1, topic: "lunch", content: "hi <b>", queue_id: "q1", local_id: "5.001" },
    });

    const confirmed = messageEvent(streamMessage(6, { sender_id: ME, flags: ["read"], content: "<p>hi &lt;b&gt;</p>" }), 0, { local_message_id: "5.001" });
    s.polls.shift()!.resolve({ result: "success", events: [confirmed] });
    await s.settle();
    expect(shownMessages(chat.snapshot.list).map((m) => [m.id, m.local_id])).toEqual([
      [5, undefined],
      [6, undefined],
    ]);
    chat.stop();
  });

  it("removes the echo when sending fails", async () => {
    const s = server();
    const failing: ApiClient = {
      call: (method, path, params, options) =>
        path === "/messages" && method === "POST" ? Promise.reject(new ApiError(400, "BAD_REQUEST", "Stream does not exist")) : s.api.call(method, path, params, options),
    };
    const chat = new Chat(failing, { kind: "feed" }, s.clock);
    chat.start();
    await s.settle();
    await expect(chat.send({ type: "stream", stream_id: 1, topic: "x" }, "hello")).rejects.toThrow("Stream does not exist");
    expect(chat.snapshot.list.local).toEqual([]);
    chat.stop();
  });

  it("fetches the open view again after re-registering a lost queue", async () => {
    const s = server();
    const chat = new Chat(s.api, { kind: "feed" }, s.clock);
    chat.start();
    await s.settle();
    const afterStart = s.calls.length;
    s.polls.shift()!.reject(new ApiError(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: q1"));
    await s.settle();
    // A new queue: the view is fetched again after it exists (no catch-up needed then).
    expect(s.calls.slice(afterStart).map((c) => `${c.method} ${c.path}`)).toEqual(["POST /register", "GET /messages", "GET /events"]);
    expect(s.calls.at(-1)!.params).toMatchObject({ queue_id: "q2" });
    expect(chat.snapshot.state?.queueId).toBe("q2");
    chat.stop();
  });

  it("marks seen messages read only in views that mark read, and drops their unread count at once", async () => {
    const s = server();
    const timers: (() => void)[] = [];
    // The read marks' timer only (the presence pings have their own test).
    const clock: ChatClock = { ...s.clock, schedule: (fn, ms) => void (ms !== 0 && ms !== PRESENCE_PING_MS && timers.push(fn)) };
    const search = new Chat(s.api, { kind: "narrow", terms: [{ operator: "search", operand: "pizza" }] }, clock);
    search.seen([5]);
    expect(timers).toEqual([]);

    const chat = new Chat(s.api, { kind: "feed" }, clock);
    chat.start();
    await s.settle();
    s.polls.shift()!.resolve({ result: "success", events: [messageEvent(streamMessage(7), 0)] });
    await s.settle();
    expect(chat.snapshot.state!.unread.messages.has(7)).toBe(true);
    chat.seen([7]);
    timers.shift()!();
    await s.settle();
    expect(s.calls.at(-1)).toMatchObject({ method: "POST", path: "/messages/flags", params: { messages: [7], op: "add", flag: "read" } });
    expect(chat.snapshot.state!.unread.messages.has(7)).toBe(false);
    expect(chat.snapshot.list.messages.find((m) => m.id === 7)?.flags).toEqual(["read"]);
    expect(chat.snapshot.state!.lastEventId).toBe(0);
    chat.stop();
  });

  it("pings presence at the interval the server announced at register", async () => {
    const s = server();
    const timers: { fn: () => void; ms: number }[] = [];
    const clock: ChatClock = { ...s.clock, schedule: (fn, ms) => void timers.push({ fn, ms }) };
    const api: ApiClient = {
      call: (method, path, params, options) =>
        path === "/register"
          ? s.api.call(method, path, params, options).then((r) => ({ ...(r as object), server_presence_ping_interval_seconds: 30 }) as never)
          : s.api.call(method, path, params, options),
    };
    const chat = new Chat(api, { kind: "feed" }, clock, () => true);
    chat.start();
    await s.settle();
    timers.shift()!.fn();
    await s.settle();
    expect(timers.map((t) => t.ms)).toEqual([30_000]);
    chat.stop();
  });

  it("reports presence after registering and every PRESENCE_PING_MS, and shows the organization's presence from the answer", async () => {
    const s = server();
    const timers: { fn: () => void; ms: number }[] = [];
    const clock: ChatClock = { ...s.clock, schedule: (fn, ms) => void timers.push({ fn, ms }) };
    let active = true;
    const api: ApiClient = {
      call: (method, path, params, options) =>
        path === "/users/me/presence"
          ? s.api.call(method, path, params, options).then(() => ({ presences: { "11": { active_timestamp: 1_700_000_000, idle_timestamp: 1_700_000_010 } } }) as never)
          : s.api.call(method, path, params, options),
    };
    const chat = new Chat(api, { kind: "feed" }, clock, () => active);
    chat.start();
    await s.settle();
    expect(s.calls.some((c) => c.path === "/users/me/presence")).toBe(false);
    expect(timers.map((t) => t.ms)).toEqual([0]);

    timers.shift()!.fn();
    await s.settle();
    expect(s.calls.at(-1)).toEqual({ method: "POST", path: "/users/me/presence", params: { status: "active", new_user_input: true, slim_presence: true } });
    expect(chat.snapshot.state!.presence.get(11)).toEqual({ active_timestamp: 1_700_000_000, idle_timestamp: 1_700_000_010 });
    expect(timers.map((t) => t.ms)).toEqual([PRESENCE_PING_MS]);

    active = false;
    timers.shift()!.fn();
    await s.settle();
    expect(s.calls.at(-1)!.params).toEqual({ status: "idle", new_user_input: false, slim_presence: true });

    chat.stop();
    timers.shift()!.fn();
    await s.settle();
    expect(s.calls.filter((c) => c.path === "/users/me/presence")).toHaveLength(2);
    expect(timers).toEqual([]);
  });

  it("toggles the reader's reaction with the emoji's fields only, removing it when the reader has it", async () => {
    const s = server();
    const chat = new Chat(s.api, { kind: "feed" }, s.clock);
    const group = { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" as const, user_ids: [ME, 11] };
    await chat.toggleReaction(streamMessage(5), group);
    expect(s.calls.at(-1)).toEqual({
      method: "POST",
      path: "/messages/5/reactions",
      params: { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" },
    });
    chat.start();
    await s.settle();
    const reacted = streamMessage(5, { reactions: [{ emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: ME }] });
    await chat.toggleReaction(reacted, group);
    expect(s.calls.at(-1)).toMatchObject({ method: "DELETE", path: "/messages/5/reactions", params: { emoji_name: "+1" } });
    expect(Object.keys(s.calls.at(-1)!.params)).toEqual(["emoji_name", "emoji_code", "reaction_type"]);
    chat.stop();
  });
});

/**
 * A fake server whose `POST /register` and `GET /messages` answer only when
 * the test says (`answer(index, body)` for the call at that index), so the
 * order of the answers is the test's.
 */
function slowServer() {
  const calls: { method: string; path: string; params: Record<string, unknown>; resolve(v: unknown): void; reject(e: unknown): void }[] = [];
  const api: ApiClient = {
    call<T>(method: string, path: string, params: Record<string, unknown> = {}) {
      return new Promise<T>((resolve, reject) => calls.push({ method, path, params, resolve: resolve as (v: unknown) => void, reject }));
    },
  };
  const clock: ChatClock = { now: () => 1_700_000_000_000, sleep: async () => undefined, schedule: () => undefined, random: () => 0 };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const page = (ids: number[], found_newest = true) => ({ result: "success", messages: ids.map((id) => streamMessage(id, { flags: ["read"] })), found_oldest: true, found_newest });
  const shown = (chat: Chat) => shownMessages(chat.snapshot.list).map((m) => m.id);
  const paths = () => calls.map((c) => `${c.method} ${c.path}`);
  return { api, clock, calls, settle, page, shown, paths };
}

describe("Chat start-up", () => {
  it("fetches the first page alongside register, then once the queue exists the messages sent in between, each once", async () => {
    // Prepare: both requests in flight; the first page answers before the queue exists.
    const s = slowServer();
    const chat = new Chat(s.api, { kind: "feed" }, s.clock);
    chat.start();
    await s.settle();
    expect(s.paths()).toEqual(["POST /register", "GET /messages"]);
    s.calls[1]!.resolve(s.page([5]));
    await s.settle();
    expect(s.shown(chat)).toEqual([5]);
    expect(s.paths()).toEqual(["POST /register", "GET /messages"]);

    // Act: the queue exists; message 8 arrives as an event while the catch-up is in flight.
    s.calls[0]!.resolve(register("q1"));
    await s.settle();
    expect(s.paths().sort()).toEqual(["GET /events", "GET /messages", "GET /messages", "POST /register"]);
    const poll = s.calls.find((c) => c.path === "/events")!;
    const catchUp = s.calls.filter((c) => c.path === "/messages")[1]!;
    expect(catchUp.params).toMatchObject({ anchor: 5, num_before: 0, num_after: 100, include_anchor: false });
    poll.resolve({ result: "success", events: [messageEvent(streamMessage(8, { flags: ["read"] }), 0)] });
    await s.settle();
    expect(s.shown(chat)).toEqual([5, 8]);
    // 7 was sent after the first page was read and before the queue existed: only the catch-up has it.
    catchUp.resolve(s.page([7, 8]));
    await s.settle();

    // Assess
    expect(s.shown(chat)).toEqual([5, 7, 8]);
    expect(chat.snapshot.list.foundNewest).toBe(true);
    chat.stop();
  });

  it("waits for the queue before catching up when register answers last, and asks nothing more for a view opened after it", async () => {
    const s = slowServer();
    const chat = new Chat(s.api, { kind: "feed" }, s.clock);
    chat.start();
    await s.settle();
    s.calls[0]!.resolve(register("q1"));
    await s.settle();
    // The first page was asked for before the queue existed: its catch-up follows its answer.
    s.calls[1]!.resolve(s.page([5]));
    await s.settle();
    expect(s.calls.filter((c) => c.path === "/messages").map((c) => c.params.anchor)).toEqual(["first_unread", 5]);

    const before = s.calls.length;
    void chat.open({ kind: "narrow", terms: [{ operator: "channel", operand: 1 }] });
    await s.settle();
    s.calls.at(-1)!.resolve(s.page([3, 5]));
    await s.settle();
    expect(s.paths().slice(before)).toEqual(["GET /messages"]);
    expect(s.shown(chat)).toEqual([3, 5]);
    chat.stop();
  });

  it("leaves the newer end open when the catch-up fails, so the feed fetches it as a newer page", async () => {
    const s = slowServer();
    const chat = new Chat(s.api, { kind: "feed" }, s.clock);
    chat.start();
    await s.settle();
    s.calls[1]!.resolve(s.page([5]));
    s.calls[0]!.resolve(register("q1"));
    await s.settle();
    s.calls.filter((c) => c.path === "/messages")[1]!.reject(new ApiError(502, "BAD_GATEWAY", "Bad gateway"));
    await s.settle();
    expect(s.shown(chat)).toEqual([5]);
    expect(chat.snapshot.list.foundNewest).toBe(false);
    chat.stop();
  });
});
