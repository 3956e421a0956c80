/**
 * Contract tests of read receipts, `matches_narrow`, topic deletion,
 * `PATCH /users/me/subscriptions` and a stream's email address: success
 * and refusals, each response validated against Zulip's OpenAPI description.
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { createStreamId } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

describeContract("contract: read receipts, matches_narrow, delete_topic, PATCH subscriptions, stream email", () => {
  const org = useTestOrg();

  it("GET /messages/{message_id}/read_receipts", async () => {
    const { owner, member, member2 } = org.users;
    await createStreamId(org, owner, "contract-receipts", { principals: [owner.id, member.id, member2.id] });
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "contract-receipts", topic: "t", content: "hi" });
    const id = sent.body.id as number;
    await org.api(member2, "POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    await withRealmSettings(org, { enable_read_receipts: true }, async () => {
      const ok = conforms("GET", "/messages/{message_id}/read_receipts", await org.api(owner, "GET", `/messages/${id}/read_receipts`), 200);
      expect(ok.body.user_ids).toEqual([member2.id]);
      conforms("GET", "/messages/{message_id}/read_receipts", await org.api(owner, "GET", "/messages/999999999/read_receipts"), 400);
    });
  });

  it("GET /messages/matches_narrow", async () => {
    const { owner } = org.users;
    const sent = await org.api(owner, "POST", "/messages", { type: "stream", to: "contract-receipts", topic: "t", content: "find me" });
    const res = conforms(
      "GET",
      "/messages/matches_narrow",
      await org.api(owner, "GET", "/messages/matches_narrow", { msg_ids: [sent.body.id], narrow: [{ operator: "search", operand: "find" }] }),
      200,
    );
    expect(Object.keys(res.body.messages)).toEqual([String(sent.body.id)]);
  });

  it("POST /streams/{stream_id}/delete_topic", async () => {
    const { admin, member } = org.users;
    const streamId = await createStreamId(org, admin, "contract-topics", { principals: [admin.id, member.id] });
    await org.api(member, "POST", "/messages", { type: "stream", to: "contract-topics", topic: "gone", content: "x" });
    const ok = conforms(
      "POST",
      "/streams/{stream_id}/delete_topic",
      await org.api(admin, "POST", `/streams/${streamId}/delete_topic`, { topic_name: "gone" }),
      200,
    );
    expect(ok.body.complete).toBe(true);
    conforms("POST", "/streams/{stream_id}/delete_topic", await org.api(admin, "POST", "/streams/999999/delete_topic", { topic_name: "gone" }), 400);
  });

  it("PATCH /users/me/subscriptions", async () => {
    const { member } = org.users;
    const ok = conforms(
      "PATCH",
      "/users/me/subscriptions",
      await org.api(member, "PATCH", "/users/me/subscriptions", { add: [{ name: "contract-patch" }], delete: ["contract-topics"] }),
      200,
    );
    expect(ok.body.removed).toEqual(["contract-topics"]);
  });

  it("GET /streams/{stream_id}/email_address", async () => {
    const { member, guest } = org.users;
    const streamId = await createStreamId(org, member, "contract-email");
    const ok = conforms("GET", "/streams/{stream_id}/email_address", await org.api(member, "GET", `/streams/${streamId}/email_address`), 200);
    expect(ok.body.email).toMatch(/^contract-email\.[0-9a-f]{32}\.show-sender@/);
    conforms("GET", "/streams/{stream_id}/email_address", await org.api(guest, "GET", `/streams/${streamId}/email_address`), 400);
  });
});
