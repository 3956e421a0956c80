import { describe, expect, it } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { getRealm } from "../../shared/data/realms.js";
import { getStream } from "../../shared/data/streams.js";
import { useTestOrg } from "../support/local-stack.js";
import { eventCursors, eventsAfter } from "./users-support.js";
import { createStreamId, queueClient, subscriptionOf } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const isDefault = async (streamId: number) => (await getStream(org.stack.deps, org.realm.id, streamId))!.is_default;
const defaultIds = async (who = org.users.member) => {
  const reg = await org.api(who, "POST", "/register", { fetch_event_types: ["default_streams"] });
  return (reg.body.realm_default_streams as { stream_id: number }[]).map((s) => s.stream_id);
};

describe("POST /default_streams", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const streamId = await createStreamId(org, org.users.member, `not-default-${who}`);
    const res = await org.api(org.users[who], "POST", "/default_streams", { stream_id: streamId });
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect(await isDefault(streamId)).toBe(false);
  });

  it("makes a stream a default for an administrator, tells non-guests, and new users join it", async () => {
    const streamId = await createStreamId(org, org.users.member, "newcomers-welcome");
    const watcher = queueClient(org, org.users.member2);
    await watcher.register({ event_types: ["default_streams"] });
    const cursors = await eventCursors(org, [org.users.guest.id]);
    const res = await org.api(org.users.admin, "POST", "/default_streams", { stream_id: streamId });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await isDefault(streamId)).toBe(true);
    const event = await watcher.waitFor((e) => e.type === "default_streams");
    const ids = (event.default_streams as { stream_id: number }[]).map((s) => s.stream_id);
    expect(ids).toContain(streamId);
    expect(event.default_streams.find((s: { stream_id: number }) => s.stream_id === streamId)).toMatchObject({ name: "newcomers-welcome" });
    // Guests do not hear about default streams.
    expect(await eventsAfter(org, org.users.guest.id, cursors.get(org.users.guest.id)!)).toEqual([]);
    expect(await defaultIds()).toEqual(ids);

    const realm = (await getRealm(org.stack.deps, org.realm.id))!;
    const newcomer = await doCreateUser(org.stack.deps, realm, { email: "joiner@test.example", full_name: "Joiner", password: "joiner-password-1" });
    expect((await subscriptionOf(org, { id: newcomer.user_id } as never, streamId))?.active).toBe(true);

    // Adding it again changes nothing and sends nothing.
    const again = await eventCursors(org, [org.users.member.id]);
    expect((await org.api(org.users.owner, "POST", "/default_streams", { stream_id: streamId })).body).toEqual({ result: "success", msg: "" });
    expect(await eventsAfter(org, org.users.member.id, again.get(org.users.member.id)!)).toEqual([]);
  });

  it("refuses private streams, unknown IDs and private streams the administrator cannot see", async () => {
    const privateId = await createStreamId(org, org.users.admin, "admins-secret", { inviteOnly: true });
    expect((await org.api(org.users.admin, "POST", "/default_streams", { stream_id: privateId })).body).toEqual(
      err("Private channels cannot be made default."),
    );
    const hiddenId = await createStreamId(org, org.users.member, "members-secret", { inviteOnly: true });
    expect((await org.api(org.users.admin, "POST", "/default_streams", { stream_id: hiddenId })).body).toEqual(err("Invalid channel ID"));
    expect((await org.api(org.users.admin, "POST", "/default_streams", { stream_id: 987654 })).body).toEqual(err("Invalid channel ID"));
    expect((await org.api(org.users.admin, "POST", "/default_streams", {})).body).toEqual({
      result: "error",
      msg: "Missing 'stream_id' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "stream_id",
    });
    expect((await org.api(org.users.admin, "POST", "/default_streams", { stream_id: "abc" })).body).toEqual(
      err('Argument "stream_id" is not valid JSON.'),
    );
    expect(await isDefault(privateId)).toBe(false);
    expect(await isDefault(hiddenId)).toBe(false);
  });
});

describe("DELETE /default_streams", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const streamId = await createStreamId(org, org.users.member, `default-kept-${who}`);
    await org.api(org.users.admin, "POST", "/default_streams", { stream_id: streamId });
    const res = await org.api(org.users[who], "DELETE", "/default_streams", { stream_id: streamId });
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect(await isDefault(streamId)).toBe(true);
  });

  it("removes a default stream, tells non-guests, and register no longer lists it", async () => {
    const streamId = await createStreamId(org, org.users.member, "default-then-not");
    await org.api(org.users.admin, "POST", "/default_streams", { stream_id: streamId });
    const cursors = await eventCursors(org, [org.users.member2.id, org.users.guest.id]);
    const res = await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: streamId });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await isDefault(streamId)).toBe(false);
    const events = await eventsAfter(org, org.users.member2.id, cursors.get(org.users.member2.id)!);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe("default_streams");
    expect(events[0]!.default_streams.map((s: { stream_id: number }) => s.stream_id)).not.toContain(streamId);
    expect(await eventsAfter(org, org.users.guest.id, cursors.get(org.users.guest.id)!)).toEqual([]);
    expect(await defaultIds()).not.toContain(streamId);
    // Removing a stream that is not a default is accepted and sends nothing.
    expect((await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: streamId })).body).toEqual({ result: "success", msg: "" });
    expect(await eventsAfter(org, org.users.member2.id, cursors.get(org.users.member2.id)!)).toHaveLength(1);
  });

  it("refuses unknown IDs", async () => {
    expect((await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: 987654 })).body).toEqual(err("Invalid channel ID"));
  });
});
