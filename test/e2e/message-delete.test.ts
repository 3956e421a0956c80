import { beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { validateEvent } from "../../shared/events/schemas.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, markEvents } from "./streams-helpers.js";

const org = useTestOrg();
let streamId = 0;

beforeAll(async () => {
  const { member, member2 } = org.users;
  streamId = (await createStream(org, member, "del-stream", { principals: [member.id, member2.id] })).stream_id;
});

describe("DELETE /messages/{message_id}", () => {
  it("members may not delete (default policy: administrators); admins may, and everything goes", async () => {
    const { member, member2, admin } = org.users;
    const id = (await org.api(member, "POST", "/messages", { type: "stream", to: "del-stream", topic: "d", content: "bye" })).body.id;
    const refused = await org.api(member, "DELETE", `/messages/${id}`, {});
    expect(refused.body).toEqual({ result: "error", msg: "You don't have permission to delete this message", code: "BAD_REQUEST" });
    expect(await messageById(org.stack.deps, id)).toBeDefined();

    const marks = await markEvents(org, [member2]);
    const ok = await org.api(admin, "DELETE", `/messages/${id}`, {});
    expect(ok.body).toEqual({ result: "success", msg: "" });
    expect(await messageById(org.stack.deps, id)).toBeUndefined();
    expect((await getUserMessages(org.stack.deps, member2.id, [id])).size).toBe(0);
    const get = await org.api(member2, "GET", `/messages/${id}`, {});
    expect(get.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
    const events = (await marks.since(member2)).filter((e) => e.type === "delete_message");
    expect(events).toEqual([{ type: "delete_message", message_ids: [id], message_type: "stream", stream_id: streamId, topic: "d" }]);
    validateEvent({ ...events[0]!, id: 0 });
  });
});

describe("a stream's first_message_id", () => {
  it("is null until the first message, stays on later sends, and moves on when that message is deleted", async () => {
    const { member, member2, admin, guest } = org.users;
    const stream = await createStream(org, member, "first-id", { principals: [member.id, member2.id] });
    const firstIdOf = async () => (await org.api(member, "GET", `/streams/${stream.stream_id}`)).body.stream.first_message_id;
    expect(await firstIdOf()).toBeNull();
    const send = async (content: string) =>
      (await org.api(member, "POST", "/messages", { type: "stream", to: "first-id", topic: "t", content })).body.id as number;
    const first = await send("one");
    const second = await send("two");
    expect(await firstIdOf()).toBe(first);

    const marks = await markEvents(org, [member2, guest]);
    expect((await org.api(admin, "DELETE", `/messages/${first}`, {})).body).toMatchObject({ result: "success" });
    expect(await firstIdOf()).toBe(second);
    const update = (await marks.since(member2)).filter((e) => e.type === "stream");
    expect(update).toEqual([
      { type: "stream", op: "update", property: "first_message_id", value: second, stream_id: stream.stream_id, name: "first-id" },
    ]);
    validateEvent({ ...update[0]!, id: 0 });
    // Guests do not see public streams they are not subscribed to.
    expect((await marks.since(guest)).filter((e) => e.type === "stream")).toEqual([]);

    // Deleting the only message left leaves the stream without a first message.
    expect((await org.api(admin, "DELETE", `/messages/${second}`, {})).body).toMatchObject({ result: "success" });
    expect(await firstIdOf()).toBeNull();
  });
});
