import { createRequire } from "node:module";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// The real client from npm, unchanged.
import zulipInit from "zulip-js";
import { writeZuliprc } from "../../infra/local/bootstrap.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";

const org = useTestOrg();

async function zulipFor(user: TestUser): Promise<any> {
  const dir = await mkdtemp(join(tmpdir(), "zuliprc-"));
  const path = join(dir, "zuliprc");
  await writeZuliprc(path, { site: org.url, email: user.email, apiKey: user.apiKey });
  return zulipInit({ zuliprc: path });
}

function setHold(ms: number): void {
  (org.stack.deps.config as { LONGPOLL_HOLD_MS: number }).LONGPOLL_HOLD_MS = ms;
}

/**
 * zulip-js's `callOnEachEvent` loops forever. Once the test is done, its
 * HTTP layer (the CommonJS `helper` module every zulip-js resource calls)
 * answers nothing ever again, so the loop waits quietly instead of logging
 * connection errors each second.
 */
afterAll(() => {
  const helper = createRequire(import.meta.url)("zulip-js/lib/helper.js") as { fetch: unknown };
  helper.fetch = () => new Promise(() => {});
});

describe("zulip-js against the events API", () => {
  it("one client long-polls with callOnEachEvent and sees the message another client sends", async () => {
    const { member, member2 } = org.users;
    const sub = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "zulip-js-events" }],
      principals: [member.id, member2.id],
    });
    expect(sub.body.result).toBe("success");

    const receiver = await zulipFor(member2);
    const sender = await zulipFor(member);

    const received: Record<string, any>[] = [];
    let onMessage!: (e: Record<string, any>) => void;
    const message = new Promise<Record<string, any>>((resolve) => (onMessage = resolve));
    let onHeartbeat!: () => void;
    const heartbeat = new Promise<void>((resolve) => (onHeartbeat = resolve));
    setHold(300);
    void receiver.callOnEachEvent(
      (event: Record<string, any>) => {
        validateEvent(event);
        received.push(event);
        if (event.type === "heartbeat") onHeartbeat();
        if (event.type === "message") onMessage(event);
      },
      ["message"],
    );
    // A heartbeat proves the receiver's queue exists: what is sent next is after its registration.
    await heartbeat;
    setHold(20_000);

    const senderQueue = await sender.queues.register({ event_types: ["message"] });
    expect(senderQueue).toMatchObject({ result: "success", last_event_id: -1 });
    const sent = await sender.messages.send({
      type: "stream",
      to: "zulip-js-events",
      topic: "from zulip-js",
      content: "Hello from **zulip-js**",
      queue_id: senderQueue.queue_id,
      local_id: "42.01",
    });
    expect(sent).toMatchObject({ result: "success", id: expect.any(Number) });

    const got = await message;
    expect(got).toMatchObject({
      type: "message",
      message: {
        id: sent.id,
        sender_id: member.id,
        display_recipient: "zulip-js-events",
        subject: "from zulip-js",
        content: "Hello from **zulip-js**",
        content_type: "text/x-markdown",
      },
    });
    expect(got).not.toHaveProperty("local_id");
    expect(got).not.toHaveProperty("local_message_id");
    expect(received.filter((e) => e.type === "message")).toHaveLength(1);

    const own = await sender.events.retrieve({
      queue_id: senderQueue.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(own).toMatchObject({ result: "success", queue_id: senderQueue.queue_id });
    expect(own.events).toHaveLength(1);
    expect(validateEvent(own.events[0])).toMatchObject({
      type: "message",
      local_message_id: "42.01",
      local_id: "42.01",
      message: { id: sent.id },
    });

    const gone = await sender.queues.deregister({ queue_id: senderQueue.queue_id });
    expect(gone).toEqual({ result: "success", msg: "" });
  });
});
