/**
 * Contract tests of the scheduled-message endpoints: success and error
 * responses validated against Zulip's OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

describeContract("contract: scheduled messages", () => {
  const org = useTestOrg();

  it("POST, GET, PATCH and DELETE /scheduled_messages, with their errors", async () => {
    const me = await org.createUser("contract-scheduler");
    const when = Math.floor(Date.now() / 1000) + 3600;
    const dm = { type: "direct", to: JSON.stringify([org.users.member.id]), content: "hello", scheduled_delivery_timestamp: when };
    const created = conforms("POST", "/scheduled_messages", await org.api(me, "POST", "/scheduled_messages", dm), 200);
    const id = created.body.scheduled_message_id as number;
    const badUser = await org.api(me, "POST", "/scheduled_messages", { ...dm, to: "[999999]" });
    conforms("POST", "/scheduled_messages", badUser, 400);
    expect(badUser.body.msg).toBe("Invalid user ID 999999");
    const badStream = await org.api(me, "POST", "/scheduled_messages", { ...dm, type: "stream", to: 999999, topic: "t" });
    conforms("POST", "/scheduled_messages", badStream, 400);

    const listed = conforms("GET", "/scheduled_messages", await org.api(me, "GET", "/scheduled_messages"), 200);
    expect(listed.body.scheduled_messages).toHaveLength(1);

    const path = "/scheduled_messages/{scheduled_message_id}";
    conforms("PATCH", path, await org.api(me, "PATCH", `/scheduled_messages/${id}`, { content: "v2" }), 200);
    conforms("PATCH", path, await org.api(me, "PATCH", "/scheduled_messages/99999999", { content: "v2" }), 404);
    conforms("DELETE", path, await org.api(me, "DELETE", `/scheduled_messages/${id}`), 200);
    conforms("DELETE", path, await org.api(me, "DELETE", `/scheduled_messages/${id}`), 404);
  });
});
