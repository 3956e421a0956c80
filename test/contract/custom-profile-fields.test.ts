/**
 * Contract tests of the custom profile field endpoints Zulip's OpenAPI
 * describes (`GET`, `POST`, `PATCH` of `/realm/profile_fields`), success
 * and main error cases, plus register and the events these calls send,
 * each validated against Zulip's OpenAPI description (`test/support/openapi.ts`).
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { eventsOf, queueClient } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms, expectDocumentedFields, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: custom profile fields", () => {
  const org = useTestOrg();

  it("POST /realm/profile_fields: every type, invalid, not an administrator, missing argument", async () => {
    const bodies = [
      { name: "Phone", field_type: 1 },
      { name: "Bio", field_type: 2, hint: "About you" },
      { name: "Editor", field_type: 3, field_data: { vim: { text: "Vim", order: "1" } }, display_in_profile_summary: true },
      { name: "Birthday", field_type: 4, required: true },
      { name: "Site", field_type: 5 },
      { name: "Mentor", field_type: 6 },
      { field_type: 7, field_data: { subtype: "github" } },
      { name: "Pronouns", field_type: 8 },
    ];
    for (const body of bodies) {
      const res = conforms("POST", "/realm/profile_fields", await org.api(org.users.admin, "POST", "/realm/profile_fields", body), 200);
      expect(res.body.id).toBeGreaterThan(0);
    }
    conforms("POST", "/realm/profile_fields", await org.api(org.users.admin, "POST", "/realm/profile_fields", { name: "Bad", field_type: 9 }), 400);
    conforms("POST", "/realm/profile_fields", await org.api(org.users.member, "POST", "/realm/profile_fields", { name: "M", field_type: 1 }), 400);
    conforms("POST", "/realm/profile_fields", await org.api(org.users.admin, "POST", "/realm/profile_fields", { name: "None" }), 400);
  });

  it("GET /realm/profile_fields and register's custom_profile_fields", async () => {
    for (const who of [org.users.member, org.users.guest, org.users.bot]) {
      const res = conforms("GET", "/realm/profile_fields", await org.api(who, "GET", "/realm/profile_fields"), 200);
      expect(res.body.custom_fields.length).toBe(8);
      for (const field of res.body.custom_fields) expectDocumentedFields(field, "CustomProfileField", ["display_in_profile_summary"]);
    }
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: JSON.stringify(["custom_profile_fields"]) });
    conforms("POST", "/register", reg, 200);
    await queueClient(org, org.users.member).register({ fetch_event_types: JSON.stringify(["custom_profile_fields"]) });
  });

  it("PATCH /realm/profile_fields: reordered, invalid mapping, not an administrator", async () => {
    const ids = (await org.api(org.users.member, "GET", "/realm/profile_fields")).body.custom_fields.map((f: any) => f.id);
    const reversed = [...ids].reverse();
    conforms("PATCH", "/realm/profile_fields", await org.api(org.users.admin, "PATCH", "/realm/profile_fields", { order: reversed }), 200);
    conforms("PATCH", "/realm/profile_fields", await org.api(org.users.admin, "PATCH", "/realm/profile_fields", { order: [ids[0]] }), 400);
    conforms("PATCH", "/realm/profile_fields", await org.api(org.users.member, "PATCH", "/realm/profile_fields", { order: ids }), 400);
  });

  it("the events these calls sent and a value change match the contract's event schemas (GET /events)", async () => {
    const short = (await org.api(org.users.member, "GET", "/realm/profile_fields")).body.custom_fields.find((f: any) => f.type === 1);
    const res = await org.api(org.users.member, "PATCH", "/users/me/profile_data", { data: [{ id: short.id, value: "555-1234" }] });
    expect(res.body.result).toBe("success");
    const events = await eventsOf(org, org.users.member2.id);
    const kinds = [...new Set(events.map((e) => `${e.type} ${e.op ?? ""}`.trim()))];
    expect(kinds).toEqual(expect.arrayContaining(["custom_profile_fields", "realm_user update"]));
    expectMatchesContract("GET", "/events", 200, {
      result: "success",
      msg: "",
      queue_id: "contract",
      events: events.map((e, i) => ({ id: i, ...e })),
    });
  });
});
