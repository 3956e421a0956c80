import { describe, expect, it } from "vitest";
import { EventQueueClient } from "../support/event-queue-client.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

/**
 * Drives the other areas' actions (users, streams, subscriptions, settings)
 * through the API while queues with no event-type filter watch, and checks
 * every delivered event against its strict schema (STYLE.md: every emitted
 * event is validated in tests).
 */
const org = useTestOrg();

function watcher(user: TestUser): EventQueueClient {
  return new EventQueueClient({ baseUrl: org.url, email: user.email, apiKey: user.apiKey, onEvent: validateEvent });
}

async function ok(user: TestUser, method: string, path: string, params: Record<string, unknown>) {
  const res = await org.api(user, method, path, params);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

describe("every delivered event matches its schema", () => {
  it("for user, stream, subscription, settings, presence, typing and message changes", async () => {
    const { owner, admin, member, member2 } = org.users;
    const queues = [watcher(owner), watcher(admin), watcher(member), watcher(member2)];
    await Promise.all(
      queues.map((q, i) => q.register(i % 2 === 0 ? {} : { client_capabilities: { stream_typing_notifications: true } })),
    );

    const created = await ok(admin, "POST", "/users", {
      email: "schema-new@test.example",
      password: "a-good-long-password",
      full_name: "Schema New",
    });
    await ok(admin, "PATCH", `/users/${created.user_id}`, { full_name: "Schema Renamed", role: 300 });
    await ok(member, "PATCH", "/settings", { timezone: "Europe/Paris", default_language: "de", enable_sounds: false });
    await ok(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "schema-stream", description: "about **schemas**" }],
      principals: [member.id, member2.id],
    });
    const streamId = (await ok(member, "GET", "/get_stream_id", { stream: "schema-stream" })).stream_id as number;
    await ok(member, "POST", "/users/me/subscriptions/properties", {
      subscription_data: [
        { stream_id: streamId, property: "is_muted", value: true },
        { stream_id: streamId, property: "color", value: "#112233" },
      ],
    });
    await ok(admin, "PATCH", `/streams/${streamId}`, { description: "new description", new_name: "schema-stream-2" });
    await ok(admin, "PATCH", `/streams/${streamId}`, { is_private: true });
    await ok(member, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: "hello" });
    await ok(member, "POST", "/messages", { type: "direct", to: [member2.id], content: "hi" });
    await ok(member, "POST", "/typing", { op: "start", to: [member2.id] });
    await ok(member, "POST", "/typing", { op: "stop", type: "stream", stream_id: streamId, topic: "t" });
    await ok(member2, "POST", "/users/me/presence", { status: "active" });
    await ok(member2, "DELETE", "/users/me/subscriptions", { subscriptions: ["schema-stream-2"] });
    await ok(admin, "DELETE", `/streams/${streamId}`, {});
    await ok(admin, "DELETE", `/users/${created.user_id}`, {});

    const types = new Set<string>();
    for (const q of queues) {
      for (const event of await q.poll({ dontBlock: true })) types.add(event.op ? `${event.type}/${event.op}` : event.type);
    }
    // onEvent validated each one; make sure the run produced the variety it is meant to check.
    expect([...types].sort()).toEqual(
      expect.arrayContaining([
        "message",
        "presence",
        "realm_user/add",
        "realm_user/update",
        "stream/create",
        "stream/delete",
        "stream/update",
        "subscription/add",
        "subscription/peer_add",
        "subscription/peer_remove",
        "subscription/remove",
        "subscription/update",
        "typing/start",
        "typing/stop",
        "update_display_settings",
        "update_global_notifications",
        "user_settings/update",
      ]),
    );
  });
});
