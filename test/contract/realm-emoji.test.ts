/**
 * Contract tests of the custom emoji endpoints: success and error responses
 * validated against Zulip's OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { describeContract, expectConforms as conforms } from "../support/openapi.js";
import { pngBytes, sendFiles } from "../e2e/image-upload-helpers.js";

describeContract("contract: custom emoji", () => {
  const org = useTestOrg();

  it("POST, GET and DELETE /realm/emoji, with their errors", async () => {
    const png = await pngBytes(80, 80);
    const added = await sendFiles(org, org.users.member, "POST", "/realm/emoji/contract_emoji", [{ name: "c.png", type: "image/png", bytes: png }]);
    conforms("POST", "/realm/emoji/{emoji_name}", added, 200);
    const listed = conforms("GET", "/realm/emoji", await org.api(org.users.member, "GET", "/realm/emoji"), 200);
    expect(Object.values(listed.body.emoji).map((e: any) => e.name)).toContain("contract_emoji");
    conforms("DELETE", "/realm/emoji/{emoji_name}", await org.api(org.users.member, "DELETE", "/realm/emoji/contract_emoji"), 200);
    conforms("DELETE", "/realm/emoji/{emoji_name}", await org.api(org.users.member, "DELETE", "/realm/emoji/contract_emoji"), 404);
  });
});
