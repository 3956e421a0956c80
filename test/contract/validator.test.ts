/**
 * The contract validator itself (`test/support/openapi.ts`): it must reject
 * what the contract forbids, or every other contract test proves nothing.
 */
import { expect, it } from "vitest";
import {
  alwaysPresentFields,
  componentSchema,
  contractMismatches,
  describeContract,
  expectMatchesContract,
  registerFieldsExpected,
} from "../support/openapi.js";

const user = {
  user_id: 7,
  email: "a@example.com",
  full_name: "A",
  is_bot: false,
  bot_type: null,
  role: 400,
  is_owner: false,
  is_admin: false,
  is_billing_admin: false,
  is_guest: false,
  is_active: true,
  avatar_url: null,
  avatar_version: 1,
  timezone: "",
  date_joined: "2024-01-01T00:00:00.000000+00:00",
};

describeContract("contract validator", () => {
  it("accepts a conforming body", () => {
    expect(contractMismatches("GET", "/users", 200, { result: "success", msg: "", members: [user] })).toEqual([]);
  });

  it("reports a wrong type, a stray field and a bad enum value by path", () => {
    const bad = { ...user, user_id: "7", surprise: 1, role: 500 };
    const found = contractMismatches("GET", "/users", 200, { result: "success", msg: "", members: [user, bad] });
    expect(found).toEqual(
      expect.arrayContaining([
        { path: "/members/*/user_id", expected: "must be integer", actual: '"7"' },
        { path: "/members/*/surprise", expected: "no such field (additionalProperties: false)", actual: "1" },
        expect.objectContaining({ path: "/members/*/role", actual: "500" }),
      ]),
    );
  });

  it("rejects null where the contract does not say nullable", () => {
    expect(() => expectMatchesContract("GET", "/users/me", 200, { result: "success", msg: "", avatar_url: null })).toThrow(
      /\/avatar_url: expected must be string/,
    );
  });

  it("requires documented top-level fields of a success body", () => {
    expect(() => expectMatchesContract("GET", "/users", 200, { result: "success", msg: "" })).toThrow(/\/members: expected documented field/);
  });

  it("allows exactly the service_* version fields beside zulip_*", () => {
    const settings = (extra: Record<string, unknown>) =>
      contractMismatches("GET", "/server_settings", 200, {
        result: "success",
        msg: "",
        zulip_version: "10.0-dev",
        zulip_feature_level: 283,
        zulip_merge_base: "10.0-dev",
        ...extra,
      }).map((m) => m.path);
    expect(settings({ service_version: "10.0-dev", service_feature_level: 283, service_merge_base: "10.0-dev" })).not.toContain(
      "/service_version",
    );
    expect(settings({ service_feature_level: "283" })).toContain("/service_feature_level");
    expect(settings({ service_flavour: "x" })).toContain("/service_flavour");
  });

  it("validates error bodies, including Zulip's common errors of that status", () => {
    expect(contractMismatches("GET", "/users/{user_id}", 400, { result: "error", msg: "No such user", code: "BAD_REQUEST" })).toEqual([]);
    expect(
      contractMismatches("POST", "/users", 400, { result: "error", msg: "Missing 'email' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "email" }),
    ).toEqual([]);
    expect(contractMismatches("GET", "/users/{user_id}", 400, { result: "error", msg: "No such user" }).map((m) => m.path)).toContain("/code");
  });

  it("derives the fields a user, stream and subscription always carry", () => {
    expect(alwaysPresentFields(componentSchema("User"))).toEqual(expect.arrayContaining(["user_id", "email", "role", "avatar_version"]));
    // BasicChannel also has a `required` list, which the validator enforces.
    expect(alwaysPresentFields(componentSchema("BasicChannel"))).toEqual(expect.arrayContaining(["stream_id", "description"]));
    expect(alwaysPresentFields(componentSchema("Subscriptions"))).toEqual(expect.arrayContaining(["stream_id", "color", "is_muted"]));
  });

  it("derives the register fields clients rely on from fetch_event_types", () => {
    const all = registerFieldsExpected();
    expect(all).toEqual(expect.arrayContaining(["queue_id", "last_event_id", "zulip_feature_level", "realm_users", "subscriptions"]));
    const some = registerFieldsExpected(["realm_user"]);
    expect(some).toEqual(expect.arrayContaining(["queue_id", "realm_users", "realm_non_active_users"]));
    expect(some).not.toContain("subscriptions");
  });

  it("checks each event against the schema of its type and op", () => {
    const stream = {
      stream_id: 1, name: "a", description: "", rendered_description: "", date_created: 1, creator_id: null,
      invite_only: false, is_web_public: false, stream_post_policy: 1, message_retention_days: null,
      history_public_to_subscribers: true, first_message_id: null, is_announcement_only: false,
      can_remove_subscribers_group: 2,
    };
    const body = (event: Record<string, unknown>) => ({ result: "success", msg: "", queue_id: "q", events: [{ id: 1, ...event }] });
    expect(contractMismatches("GET", "/events", 200, body({ type: "default_streams", default_streams: [stream] }))).toEqual([]);
    expect(
      contractMismatches("GET", "/events", 200, body({ type: "default_streams", default_streams: [{ ...stream, stream_weekly_traffic: null }] })),
    ).toEqual([
      { path: "/events/*/default_streams/*/stream_weekly_traffic", expected: "no such field (additionalProperties: false)", actual: "null" },
    ]);
  });
});
