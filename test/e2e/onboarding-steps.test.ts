import { describe, expect, it } from "vitest";
import { validateEvent } from "../../shared/events/schemas.js";
import { EventQueueClient } from "../support/event-queue-client.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { eventCursors, eventsAfter, storedUser } from "./users-support.js";

const org = useTestOrg();

const mark = (user: TestUser, step: unknown) => org.api(user, "POST", "/users/me/onboarding_steps", { onboarding_step: step });

async function registered(user: TestUser, types: string[]): Promise<Record<string, any>> {
  const res = await org.api(user, "POST", "/register", { fetch_event_types: JSON.stringify(types) });
  expect(res.status).toBe(200);
  return res.body;
}

describe("onboarding steps", () => {
  it("register lists the unseen steps of a new user, and an empty legacy hotspots list", async () => {
    const me = await org.createUser("onboard-new");
    const body = await registered(me, ["onboarding_steps", "hotspots"]);
    expect(body.onboarding_steps).toEqual([{ type: "one_time_notice", name: "visibility_policy_banner" }]);
    expect(body.hotspots).toEqual([]);
  });

  it("POST /users/me/onboarding_steps marks a step seen and sends the remaining steps to the user only", async () => {
    const me = await org.createUser("onboard-mark");
    const cursors = await eventCursors(org, [me.id, org.users.member.id]);
    const res = await mark(me, "visibility_policy_banner");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect([...((await storedUser(org, me.id)).onboarding_steps_seen ?? [])]).toEqual(["visibility_policy_banner"]);
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([{ type: "onboarding_steps", onboarding_steps: [] }]);
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
    expect((await registered(me, ["onboarding_steps"])).onboarding_steps).toEqual([]);
    // Marking again is harmless and announces the (unchanged) list again.
    expect((await mark(me, "visibility_policy_banner")).body).toEqual({ result: "success", msg: "" });
    expect([...((await storedUser(org, me.id)).onboarding_steps_seen ?? [])]).toEqual(["visibility_policy_banner"]);
  });

  it("reaches the user's event queue", async () => {
    const me = await org.createUser("onboard-queue");
    const queue = new EventQueueClient({ baseUrl: org.url, email: me.email, apiKey: me.apiKey, onEvent: validateEvent });
    await queue.register({ event_types: JSON.stringify(["onboarding_steps"]) });
    await mark(me, "visibility_policy_banner");
    const event = await queue.waitFor((e) => e.type === "onboarding_steps");
    expect(event).toEqual({ id: expect.any(Number), type: "onboarding_steps", onboarding_steps: [] });
    await queue.delete();
  });

  it("refuses an unknown step and writes nothing", async () => {
    const me = await org.createUser("onboard-unknown");
    const cursors = await eventCursors(org, [me.id]);
    const res = await mark(me, "no_such_step");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Unknown onboarding_step: no_such_step", code: "BAD_REQUEST" });
    expect((await storedUser(org, me.id)).onboarding_steps_seen).toBeUndefined();
    expect(await eventsAfter(org, me.id, cursors.get(me.id)!)).toEqual([]);
  });

  it("refuses a missing parameter", async () => {
    const res = await org.api(org.users.member, "POST", "/users/me/onboarding_steps", {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", msg: "Missing 'onboarding_step' argument", code: "REQUEST_VARIABLE_MISSING" });
  });

  it("refuses bots", async () => {
    const res = await mark(org.users.bot, "visibility_policy_banner");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "This endpoint does not accept bot requests.", code: "BAD_REQUEST" });
  });

  it("lets guests mark steps", async () => {
    expect((await mark(org.users.guest, "visibility_policy_banner")).body).toEqual({ result: "success", msg: "" });
    expect((await registered(org.users.guest, ["onboarding_steps"])).onboarding_steps).toEqual([]);
  });
});
