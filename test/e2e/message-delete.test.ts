import { beforeAll, describe, expect, it } from "vitest";
import { getMessage } from "../../shared/data/messages.js";
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
    expect(await getMessage(org.stack.deps, id)).toBeDefined();

    const marks = await markEvents(org, [member2]);
    const ok = await org.api(admin, "DELETE", `/messages/${id}`, {});
    expect(ok.body).toEqual({ result: "success", msg: "" });
    expect(await getMessage(org.stack.deps, id)).toBeUndefined();
    expect((await getUserMessages(org.stack.deps, member2.id, [id])).size).toBe(0);
    const get = await org.api(member2, "GET", `/messages/${id}`, {});
    expect(get.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
    const events = (await marks.since(member2)).filter((e) => e.type === "delete_message");
    expect(events).toEqual([{ type: "delete_message", message_ids: [id], message_type: "stream", stream_id: streamId, topic: "d" }]);
    validateEvent({ ...events[0]!, id: 0 });
  });
});
