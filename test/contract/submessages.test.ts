/**
 * Contract tests of polls and to-do lists (submessages): a widget message
 * as `GET /messages` and `GET /messages/{message_id}` return it, and the
 * `submessage` event as `GET /events` delivers it, checked against Zulip's
 * OpenAPI description. `POST /submessage` itself has no entry in it at
 * feature level 283 (test/e2e/submessages.test.ts covers its answers).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: submessages", () => {
  const org = useTestOrg();

  it("a poll message with votes, and the submessage event", async () => {
    const { member, member2 } = org.users;
    const sub = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "contract-polls" }],
      principals: [member.id, member2.id],
    });
    expect(sub.status).toBe(200);
    const reg = await org.api(member2, "POST", "/register", { event_types: ["submessage"] });
    expect(reg.status).toBe(200);
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "contract-polls", topic: "t", content: "/poll Q?\nA\nB" });
    const id = sent.body.id as number;
    const vote = await org.api(member2, "POST", "/submessage", {
      message_id: id,
      msg_type: "widget",
      content: JSON.stringify({ type: "vote", key: "canned,1", vote: 1 }),
    });
    expect(vote.body).toEqual({ result: "success", msg: "" });

    const one = await org.api(member2, "GET", `/messages/${id}`, {});
    expectMatchesContract("GET", "/messages/{message_id}", 200, one.body);
    expect(one.body.message.submessages).toHaveLength(2);
    const page = await org.api(member2, "GET", "/messages", { anchor: id, num_before: 0, num_after: 0 });
    expectMatchesContract("GET", "/messages", 200, page.body);
    expect(page.body.messages[0].submessages).toHaveLength(2);

    const events = await org.api(member2, "GET", "/events", { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id, dont_block: true });
    expectMatchesContract("GET", "/events", 200, events.body);
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(["submessage"]);
  });
});
