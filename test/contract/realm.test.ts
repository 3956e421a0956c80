/**
 * Contract tests of the organization-administration endpoints the OpenAPI
 * description documents (playgrounds, linkifiers, defaults for new users,
 * default streams): success and main error cases, each response and the events
 * they send validated against Zulip's OpenAPI description.
 */
import { expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, eventsOf } from "../e2e/streams-helpers.js";
import { describeContract, expectConforms as conforms, expectMatchesContract } from "../support/openapi.js";

describeContract("contract: organization administration", () => {
  const org = useTestOrg();

  it("POST and DELETE /realm/playgrounds", async () => {
    const added = conforms(
      "POST",
      "/realm/playgrounds",
      await org.api(org.users.admin, "POST", "/realm/playgrounds", {
        name: "Python playground",
        pygments_language: "Python",
        url_template: "https://python.example.com?code={code}",
      }),
      200,
    );
    const id = added.body.id as number;
    conforms("POST", "/realm/playgrounds", await org.api(org.users.member, "POST", "/realm/playgrounds", { name: "x" }), 400);
    conforms("DELETE", "/realm/playgrounds/{playground_id}", await org.api(org.users.admin, "DELETE", `/realm/playgrounds/${id}`), 200);
    conforms("DELETE", "/realm/playgrounds/{playground_id}", await org.api(org.users.admin, "DELETE", `/realm/playgrounds/${id}`), 400);
  });

  it("GET and PATCH /realm/linkifiers, POST, PATCH and DELETE /realm/filters", async () => {
    const admin = org.users.admin;
    const params = { pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" };
    const id = conforms("POST", "/realm/filters", await org.api(admin, "POST", "/realm/filters", params), 200).body.id as number;
    conforms("POST", "/realm/filters", await org.api(admin, "POST", "/realm/filters", { pattern: "(", url_template: "x" }), 400);
    conforms("POST", "/realm/filters", await org.api(org.users.member, "POST", "/realm/filters", params), 400);
    conforms("GET", "/realm/linkifiers", await org.api(org.users.guest, "GET", "/realm/linkifiers"), 200);
    const other = conforms("POST", "/realm/filters", await org.api(admin, "POST", "/realm/filters", { pattern: "x-1", url_template: "https://x.example/" }), 200);
    const order = JSON.stringify([other.body.id, id]);
    conforms("PATCH", "/realm/linkifiers", await org.api(admin, "PATCH", "/realm/linkifiers", { ordered_linkifier_ids: order }), 200);
    conforms("PATCH", "/realm/linkifiers", await org.api(admin, "PATCH", "/realm/linkifiers", { ordered_linkifier_ids: "[1]" }), 400);
    const update = { pattern: "#(?P<id>[0-9]{2,})", url_template: "https://trac.example.com/t/{id}" };
    conforms("PATCH", "/realm/filters/{filter_id}", await org.api(admin, "PATCH", `/realm/filters/${id}`, update), 200);
    conforms("PATCH", "/realm/filters/{filter_id}", await org.api(admin, "PATCH", "/realm/filters/999999", update), 400);
    conforms("DELETE", "/realm/filters/{filter_id}", await org.api(admin, "DELETE", `/realm/filters/${id}`), 200);
    conforms("DELETE", "/realm/filters/{filter_id}", await org.api(admin, "DELETE", `/realm/filters/${id}`), 400);
  });

  it("PATCH /realm/user_settings_defaults", async () => {
    conforms(
      "PATCH",
      "/realm/user_settings_defaults",
      await org.api(org.users.admin, "PATCH", "/realm/user_settings_defaults", { color_scheme: 2, frobnicate: 1 }),
      200,
    );
    conforms(
      "PATCH",
      "/realm/user_settings_defaults",
      await org.api(org.users.member, "PATCH", "/realm/user_settings_defaults", { color_scheme: 2 }),
      400,
    );
  });

  it("POST and DELETE /default_streams", async () => {
    const streamId = await createStreamId(org, org.users.member, "contract-default");
    conforms("POST", "/default_streams", await org.api(org.users.admin, "POST", "/default_streams", { stream_id: streamId }), 200);
    conforms("POST", "/default_streams", await org.api(org.users.admin, "POST", "/default_streams", { stream_id: 999999 }), 400);
    const privateId = await createStreamId(org, org.users.admin, "contract-private", { inviteOnly: true });
    conforms("POST", "/default_streams", await org.api(org.users.admin, "POST", "/default_streams", { stream_id: privateId }), 400);
    conforms("DELETE", "/default_streams", await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: streamId }), 200);
    conforms("DELETE", "/default_streams", await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: 999999 }), 400);
  });

  it("the events these changes send match the contract", async () => {
    await org.api(org.users.admin, "PATCH", "/realm", { allow_message_editing: false, invite_to_stream_policy: 2 });
    const events = (await eventsOf(org, org.users.member2.id)).filter((e) =>
      ["realm_playgrounds", "realm_linkifiers", "realm_user_settings_defaults", "default_streams", "realm"].includes(e.type),
    );
    const kinds = new Set(events.map((e) => `${e.type} ${e.op ?? ""}`.trim()));
    expect([...kinds].sort()).toEqual(
      [
        "default_streams",
        "realm update",
        "realm update_dict",
        "realm_linkifiers",
        "realm_playgrounds",
        "realm_user_settings_defaults update",
      ].sort(),
    );
    expectMatchesContract("GET", "/events", 200, {
      result: "success",
      msg: "",
      queue_id: "contract",
      events: events.map((e, i) => ({ id: i, ...e })),
    });
  });
});
