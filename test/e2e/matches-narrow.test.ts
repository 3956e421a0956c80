import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId } from "./streams-helpers.js";

const org = useTestOrg();

const m: Record<string, number> = {};

async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const res = await org.api(user, "POST", "/messages", params);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

const matches = (user: TestUser, ids: number[], narrow: unknown) =>
  org.api(user, "GET", "/messages/matches_narrow", { msg_ids: ids, narrow });

beforeAll(async () => {
  const { member, member2 } = org.users;
  await createStreamId(org, member, "narrow-a", { principals: [member.id, member2.id] });
  await createStreamId(org, member, "narrow-b", { principals: [member.id, member2.id] });
  await createStreamId(org, member, "narrow-unjoined", { principals: [member.id] });
  m.cool = await send(member, { type: "stream", to: "narrow-a", topic: "Sunglasses & hats", content: "cool **sunglasses** here" });
  m.other = await send(member, { type: "stream", to: "narrow-b", topic: "t", content: "nothing to see" });
  m.unjoined = await send(member, { type: "stream", to: "narrow-unjoined", topic: "t", content: "cool sunglasses elsewhere" });
  m.dm = await send(member, { type: "private", to: [org.users.admin.id], content: "cool sunglasses secret" });
});

describe("GET /messages/matches_narrow", () => {
  it("answers the matching messages keyed by ID, search words highlighted in content and topic", async () => {
    const res = await matches(org.users.member2, [m.cool!, m.other!], [{ operator: "search", operand: "sunglasses" }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      messages: {
        [String(m.cool)]: {
          match_content: '<p>cool <strong><span class="highlight">sunglasses</span></strong> here</p>',
          match_subject: '<span class="highlight">Sunglasses</span> &amp; hats',
        },
      },
    });
  });

  it("without search, gives the rendered content and escaped topic as they are", async () => {
    const res = await matches(org.users.member2, [m.cool!, m.other!], [{ operator: "channel", operand: "narrow-a" }]);
    expect(res.body.messages).toEqual({
      [String(m.cool)]: { match_content: "<p>cool <strong>sunglasses</strong> here</p>", match_subject: "Sunglasses &amp; hats" },
    });
    const negated = await matches(org.users.member2, [m.cool!, m.other!], [["stream", "narrow-a"]].map(([operator, operand]) => ({ operator, operand, negated: true })));
    expect(Object.keys(negated.body.messages)).toEqual([String(m.other)]);
  });

  it("leaves out messages the user did not receive, others' direct messages and unknown IDs", async () => {
    const res = await matches(org.users.member2, [m.unjoined!, m.dm!, 999_999_999], [{ operator: "search", operand: "cool" }]);
    expect(res.body).toEqual({ result: "success", msg: "", messages: {} });
    const sender = await matches(org.users.member, [m.unjoined!, m.dm!], [{ operator: "search", operand: "cool" }]);
    expect(Object.keys(sender.body.messages).sort()).toEqual([String(m.unjoined), String(m.dm)].sort());
  });

  it("refuses a bad narrow and missing parameters with Zulip's errors", async () => {
    const { member2 } = org.users;
    const unknown = await matches(member2, [m.cool!], [{ operator: "channel", operand: "no-such-stream" }]);
    expect(unknown.body).toEqual({
      result: "error",
      msg: "Invalid narrow operator: unknown channel no-such-stream",
      desc: "unknown channel no-such-stream",
      code: "BAD_NARROW",
    });
    const noNarrow = await org.api(member2, "GET", "/messages/matches_narrow", { msg_ids: [m.cool] });
    expect(noNarrow.body).toMatchObject({ result: "error", msg: "Missing 'narrow' argument", code: "REQUEST_VARIABLE_MISSING" });
    const noIds = await org.api(member2, "GET", "/messages/matches_narrow", { narrow: [] });
    expect(noIds.body).toMatchObject({ result: "error", msg: "Missing 'msg_ids' argument", code: "REQUEST_VARIABLE_MISSING" });
    const badIds = await org.api(member2, "GET", "/messages/matches_narrow", { msg_ids: "[\"x\"]", narrow: [] });
    expect(badIds.status).toBe(400);
    expect(badIds.body.result).toBe("error");
  });
});
