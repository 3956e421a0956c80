/**
 * Contract tests of the drafts endpoints: success and error responses
 * validated against Zulip's OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

describeContract("contract: drafts", () => {
  const org = useTestOrg();

  it("POST, GET, PATCH and DELETE /drafts, with their errors", async () => {
    const me = await org.createUser("contract-drafter");
    const draft = { type: "private", to: [org.users.member.id], topic: "", content: "hello" };
    const created = conforms("POST", "/drafts", await org.api(me, "POST", "/drafts", { drafts: [draft, { ...draft, type: "" }] }), 200);
    const [id] = created.body.ids as number[];
    const badStream = await org.api(me, "POST", "/drafts", { drafts: [{ ...draft, type: "stream", to: [] }] });
    conforms("POST", "/drafts", badStream, 400);
    expect(badStream.body.msg).toBe("Must specify exactly 1 channel ID for channel messages");

    const listed = conforms("GET", "/drafts", await org.api(me, "GET", "/drafts"), 200);
    expect(listed.body.count).toBe(2);

    conforms("PATCH", "/drafts/{draft_id}", await org.api(me, "PATCH", `/drafts/${id}`, { draft: { ...draft, content: "v2" } }), 200);
    conforms("PATCH", "/drafts/{draft_id}", await org.api(me, "PATCH", "/drafts/99999999", { draft }), 404);

    conforms("DELETE", "/drafts/{draft_id}", await org.api(me, "DELETE", `/drafts/${id}`), 200);
    conforms("DELETE", "/drafts/{draft_id}", await org.api(me, "DELETE", `/drafts/${id}`), 404);
  });
});
