/**
 * Contract tests of the user-group endpoints: every endpoint, success and
 * main error cases, each response validated against Zulip's OpenAPI
 * description (`test/support/openapi.ts`), and the `user_group` events the
 * calls sent.
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { eventsOf } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms, expectDocumentedFields, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: user groups", () => {
  const org = useTestOrg();
  let groupId = 0;
  let subgroupId = 0;

  it("POST /user_groups/create and GET /user_groups", async () => {
    const { member, member2 } = org.users;
    conforms(
      "POST",
      "/user_groups/create",
      await org.api(member, "POST", "/user_groups/create", { name: "contract", description: "d", members: [member.id] }),
      200,
    );
    conforms(
      "POST",
      "/user_groups/create",
      await org.api(member, "POST", "/user_groups/create", { name: "contract-sub", description: "", members: [member2.id] }),
      200,
    );
    const bad = await org.api(member, "POST", "/user_groups/create", { name: "x", description: "", members: [999_999] });
    conforms("POST", "/user_groups/create", bad, 400);
    expect(bad.body.msg).toBe("Invalid user ID: 999999");
    const list = conforms("GET", "/user_groups", await org.api(member, "GET", "/user_groups"), 200);
    for (const g of list.body.user_groups) expectDocumentedFields(g, "UserGroup");
    groupId = list.body.user_groups.find((g: { name: string }) => g.name === "contract").id;
    subgroupId = list.body.user_groups.find((g: { name: string }) => g.name === "contract-sub").id;
  });

  it("PATCH and DELETE /user_groups/{user_group_id}", async () => {
    const { member } = org.users;
    conforms(
      "PATCH",
      "/user_groups/{user_group_id}",
      await org.api(member, "PATCH", `/user_groups/${groupId}`, { description: "new" }),
      200,
    );
    conforms("PATCH", "/user_groups/{user_group_id}", await org.api(member, "PATCH", "/user_groups/999999", { name: "y" }), 400);
    conforms("DELETE", "/user_groups/{user_group_id}", await org.api(member, "DELETE", "/user_groups/999999"), 400);
  });

  it("members and subgroups", async () => {
    const { member, member2 } = org.users;
    conforms(
      "POST",
      "/user_groups/{user_group_id}/members",
      await org.api(member, "POST", `/user_groups/${groupId}/members`, { add: [member2.id] }),
      200,
    );
    conforms("GET", "/user_groups/{user_group_id}/members", await org.api(member, "GET", `/user_groups/${groupId}/members`), 200);
    conforms(
      "GET",
      "/user_groups/{user_group_id}/members/{user_id}",
      await org.api(member, "GET", `/user_groups/${groupId}/members/${member2.id}`, { direct_member_only: true }),
      200,
    );
    conforms(
      "POST",
      "/user_groups/{user_group_id}/subgroups",
      await org.api(member, "POST", `/user_groups/${groupId}/subgroups`, { add: [subgroupId] }),
      200,
    );
    conforms("GET", "/user_groups/{user_group_id}/subgroups", await org.api(member, "GET", `/user_groups/${groupId}/subgroups`), 200);
    conforms(
      "POST",
      "/user_groups/{user_group_id}/subgroups",
      await org.api(member, "POST", `/user_groups/${groupId}/subgroups`, { delete: [subgroupId] }),
      200,
    );
    conforms(
      "POST",
      "/user_groups/{user_group_id}/members",
      await org.api(member, "POST", `/user_groups/${groupId}/members`, { delete: [member2.id] }),
      200,
    );
    conforms("DELETE", "/user_groups/{user_group_id}", await org.api(member2, "DELETE", `/user_groups/${subgroupId}`), 200);
  });

  it("POST /register realm_user_groups and the user_group events match the contract", async () => {
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: JSON.stringify(["realm_user_groups"]) });
    for (const g of reg.body.realm_user_groups) expectDocumentedFields(g, "UserGroup");
    const events = (await eventsOf(org, org.users.member2.id)).filter((e) => e.type === "user_group");
    expect(new Set(events.map((e) => e.op))).toEqual(
      new Set(["add", "update", "add_members", "remove_members", "add_subgroups", "remove_subgroups", "remove"]),
    );
    expectMatchesContract("GET", "/events", 200, {
      result: "success",
      msg: "",
      queue_id: "contract",
      events: events.map((e, i) => ({ id: i, ...e })),
    });
  });
});
