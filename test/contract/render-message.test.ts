/**
 * Contract test of `POST /messages/render`: success and error responses
 * validated against Zulip's OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";

describeContract("contract: render a message", () => {
  const org = useTestOrg();

  it("POST /messages/render, with its errors", async () => {
    const { member } = org.users;
    const ok = conforms("POST", "/messages/render", await org.api(member, "POST", "/messages/render", { content: "**foo**" }), 200);
    expect(ok.body.rendered).toBe("<p><strong>foo</strong></p>");
    conforms("POST", "/messages/render", await org.api(member, "POST", "/messages/render", { content: "" }), 200);
    const missing = conforms("POST", "/messages/render", await org.api(member, "POST", "/messages/render", {}), 400);
    expect(missing.body.code).toBe("REQUEST_VARIABLE_MISSING");
    const long = conforms("POST", "/messages/render", await org.api(member, "POST", "/messages/render", { content: "a".repeat(10_001) }), 400);
    expect(long.body.msg).toBe("content is too long (limit: 10000 characters)");
  });
});
