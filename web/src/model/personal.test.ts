import { describe, expect, it } from "vitest";
import { applyPersonalEvent, personalFromRegister, type WireRealmBot } from "./personal.js";
import { applyEvent, registerParams, stateFromRegister } from "./store.js";
import type { ServerEvent } from "./types.js";

const bot = (user_id: number, over: Partial<WireRealmBot> = {}): WireRealmBot => ({
  user_id,
  full_name: `Bot ${user_id}`,
  api_key: `key${user_id}`,
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
  avatar_url: "/avatar.png",
  owner_id: 10,
  services: [],
  email: `b${user_id}-bot@example.com`,
  bot_type: 2,
  is_active: true,
  ...over,
});
const ev = (e: Record<string, unknown>) => ({ id: 1, ...e }) as unknown as ServerEvent;

describe("personalFromRegister", () => {
  it("reads the lists of a register answer and leaves absent ones empty", () => {
    // Act
    const full = personalFromRegister({
      alert_words: ["deploy"],
      muted_users: [{ id: 5, timestamp: 100 }],
      realm_bots: [bot(20)],
      custom_profile_fields: [],
      realm_incoming_webhook_bots: [{ name: "github", display_name: "GitHub", all_event_types: null, config: {} }],
    });
    const empty = personalFromRegister({});
    // Assess
    expect(full.alertWords).toEqual(["deploy"]);
    expect(full.bots.map((b) => b.user_id)).toEqual([20]);
    expect(full.webhookIntegrations).toEqual([{ name: "github", display_name: "GitHub" }]);
    expect(empty).toEqual({ alertWords: [], bots: [], webhookIntegrations: [] });
  });
});

describe("applyPersonalEvent", () => {
  const base = personalFromRegister({ alert_words: ["a"], realm_bots: [bot(20), bot(21)] });

  it("replaces alert words with the event's whole list and leaves other events to their own modules", () => {
    expect(applyPersonalEvent(base, ev({ type: "alert_words", alert_words: ["a", "b"] })).alertWords).toEqual(["a", "b"]);
    expect(applyPersonalEvent(base, ev({ type: "muted_users", muted_users: [{ id: 7, timestamp: 9 }] }))).toBe(base);
  });

  it("adds, updates, marks deactivated and deletes bots", () => {
    // Act
    const added = applyPersonalEvent(base, ev({ type: "realm_bot", op: "add", bot: bot(22) }));
    const updated = applyPersonalEvent(added, ev({ type: "realm_bot", op: "update", bot: { user_id: 20, api_key: "new" } }));
    const removed = applyPersonalEvent(updated, ev({ type: "realm_bot", op: "remove", bot: { user_id: 21, full_name: "Bot 21" } }));
    const deleted = applyPersonalEvent(removed, ev({ type: "realm_bot", op: "delete", bot: { user_id: 22 } }));
    // Assess
    expect(added.bots.map((b) => b.user_id)).toEqual([20, 21, 22]);
    expect(updated.bots.find((b) => b.user_id === 20)?.api_key).toBe("new");
    expect(removed.bots.find((b) => b.user_id === 21)?.is_active).toBe(false);
    expect(deleted.bots.map((b) => b.user_id)).toEqual([20, 21]);
  });

  it("ignores an update of a bot it does not list and other event types", () => {
    expect(applyPersonalEvent(base, ev({ type: "realm_bot", op: "update", bot: { user_id: 99, full_name: "x" } }))).toBe(base);
    expect(applyPersonalEvent(base, ev({ type: "heartbeat" }))).toBe(base);
  });
});

describe("the store and personal settings", () => {
  it("registers for the lists' events and fetches the integrations", () => {
    const params = registerParams();
    expect(params.event_types).toEqual(expect.arrayContaining(["alert_words", "muted_users", "realm_bot", "custom_profile_fields"]));
    expect(params.fetch_event_types).toEqual(expect.arrayContaining(["realm_incoming_webhook_bots"]));
  });

  it("applies alert_words events and a user's custom profile field update", () => {
    // Prepare
    const state = stateFromRegister({
      user_id: 10,
      realm_users: [{ user_id: 10, full_name: "Me", email: "me@example.com", profile_data: { "3": { value: "old" } } }],
      alert_words: [],
    });
    // Act
    const words = applyEvent(state, ev({ type: "alert_words", alert_words: ["ship"] }), 0);
    const set = applyEvent(words, ev({ type: "realm_user", op: "update", person: { user_id: 10, custom_profile_field: { id: 4, value: "Berlin" } } }), 0);
    const cleared = applyEvent(set, ev({ type: "realm_user", op: "update", person: { user_id: 10, custom_profile_field: { id: 3, value: null } } }), 0);
    // Assess
    expect(words.personal.alertWords).toEqual(["ship"]);
    expect(set.users.get(10)?.profile_data).toEqual({ "3": { value: "old" }, "4": { value: "Berlin" } });
    expect(cleared.users.get(10)?.profile_data).toEqual({ "4": { value: "Berlin" } });
  });
});
