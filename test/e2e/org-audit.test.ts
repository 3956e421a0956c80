import { afterEach, describe, expect, it } from "vitest";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { getRealm, updateRealmFields } from "../../shared/data/realms.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, queueClient, subscriptionOf } from "./streams-helpers.js";

// Where the organization-administration parts meet: after each change,
// register's state and what a second client's long poll sees.

const org = useTestOrg();
const ok = { result: "success", msg: "" };

describe("custom profile field deletion", () => {
  it("register's custom_profile_fields and the users' profile_data lose the field; a second client hears it", async () => {
    const created = await org.api(org.users.admin, "POST", "/realm/profile_fields", { name: "Desk", field_type: 1 });
    expect(created.body.result).toBe("success");
    const fieldId = created.body.id as number;
    const set = await org.api(org.users.member, "PATCH", "/users/me/profile_data", {
      data: JSON.stringify([{ id: fieldId, value: "B-12" }]),
    });
    expect(set.body).toEqual(ok);
    const before = await org.api(org.users.member2, "POST", "/register", { fetch_event_types: JSON.stringify(["realm_user", "custom_profile_fields"]) });
    const meBefore = (before.body.realm_users as { user_id: number; profile_data: Record<string, unknown> }[]).find(
      (u) => u.user_id === org.users.member.id,
    )!;
    expect(meBefore.profile_data[String(fieldId)]).toEqual({ value: "B-12", rendered_value: "<p>B-12</p>" });

    const watcher = queueClient(org, org.users.member2);
    await watcher.register({ event_types: ["custom_profile_fields"] });
    expect((await org.api(org.users.admin, "DELETE", `/realm/profile_fields/${fieldId}`)).body).toEqual(ok);
    const event = await watcher.waitFor((e) => e.type === "custom_profile_fields");
    expect((event.fields as { id: number }[]).some((f) => f.id === fieldId)).toBe(false);

    const after = await org.api(org.users.member2, "POST", "/register", { fetch_event_types: JSON.stringify(["realm_user", "custom_profile_fields"]) });
    expect(after.body.custom_profile_fields).toEqual(event.fields);
    const meAfter = (after.body.realm_users as { user_id: number; profile_data: Record<string, unknown> }[]).find(
      (u) => u.user_id === org.users.member.id,
    )!;
    expect(meAfter.profile_data).not.toHaveProperty(String(fieldId));
  });
});

describe("default stream removal", () => {
  it("a user created after the removal is not subscribed to the stream", async () => {
    const streamId = await createStreamId(org, org.users.member, "was-default");
    expect((await org.api(org.users.admin, "POST", "/default_streams", { stream_id: streamId })).body).toEqual(ok);
    const realm = (await getRealm(org.stack.deps, org.realm.id))!;
    const early = await doCreateUser(org.stack.deps, realm, { email: "early@test.example", full_name: "Early", password: "early-password-1" });
    expect((await subscriptionOf(org, { id: early.user_id } as never, streamId))?.active).toBe(true);

    expect((await org.api(org.users.admin, "DELETE", "/default_streams", { stream_id: streamId })).body).toEqual(ok);
    const late = await doCreateUser(org.stack.deps, realm, { email: "late@test.example", full_name: "Late", password: "late-password-1" });
    expect(await subscriptionOf(org, { id: late.user_id } as never, streamId)).toBeUndefined();
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: JSON.stringify(["default_streams"]) });
    expect((reg.body.realm_default_streams as { stream_id: number }[]).map((s) => s.stream_id)).not.toContain(streamId);
  });
});

describe("realm settings changes", () => {
  afterEach(async () => {
    await updateRealmFields(org.stack.deps, org.realm.id, { settings: {} });
  });

  it("a second client hears wildcard_mention_policy and user_group_edit_policy changes, and register shows them", async () => {
    const watcher = queueClient(org, org.users.member);
    await watcher.register({ event_types: ["realm"] });
    const res = await org.api(org.users.admin, "PATCH", "/realm", { wildcard_mention_policy: 7, user_group_edit_policy: 2 });
    expect(res.body).toEqual({ ...ok, wildcard_mention_policy: 7, user_group_edit_policy: 2 });
    const seen: Record<string, any>[] = [];
    while (seen.length < 2) seen.push(...(await watcher.poll()).filter((e) => e.type === "realm"));
    const byProperty = seen.map(({ id: _id, ...e }) => e).sort((a, b) => (a.property < b.property ? -1 : 1));
    expect(byProperty).toEqual([
      { type: "realm", op: "update", property: "user_group_edit_policy", value: 2 },
      { type: "realm", op: "update", property: "wildcard_mention_policy", value: 7 },
    ]);
    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: JSON.stringify(["realm"]) });
    expect(reg.body).toMatchObject({ realm_wildcard_mention_policy: 7, realm_user_group_edit_policy: 2 });
  });
});
