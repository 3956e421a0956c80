import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { applyRealmChange, getRealm, updateRealmFields } from "../../shared/data/realms.js";
import { systemGroupId } from "../../shared/domain/realm-settings.js";
import { eventCursors, eventsAfter } from "./users-support.js";
import { createStreamId, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const storedRealm = async () => (await getRealm(org.stack.deps, org.realm.id))!;
const patch = (user: TestUser, params: Record<string, unknown>) => org.api(user, "PATCH", "/realm", params);

describe("PATCH /realm: who may", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const res = await patch(org.users[who], { name: "Renamed by " + who });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect((await storedRealm()).name).toBe(org.realm.name);
  });

  it.each([
    ["waiting_period_threshold", 3],
    ["message_retention_days", 30],
    ["invite_required", false],
    ["emails_restricted_to_domains", true],
    ["disallow_disposable_email_addresses", false],
    ["create_multiuse_invite_group", { new: 0 }],
  ])("refuses an administrator %s (owners only)", async (name, value) => {
    const res = await patch(org.users.admin, { [name]: value, name: "Not applied" });
    expect(res.body).toEqual(err("Must be an organization owner"));
    expect((await storedRealm()).name).toBe(org.realm.name);
  });

  it("lets an owner change owners-only settings, and answers what changed", async () => {
    const res = await patch(org.users.owner, { waiting_period_threshold: 3, message_retention_days: "unlimited", invite_required: false });
    // message_retention_days "unlimited" is the default (-1): unchanged, not reported.
    expect(res.body).toEqual({ result: "success", msg: "", waiting_period_threshold: 3, invite_required: false });
    expect((await storedRealm()).settings).toMatchObject({ waiting_period_threshold: 3, invite_required: false });
    const back = await patch(org.users.owner, { waiting_period_threshold: 0, invite_required: true });
    expect(back.body).toEqual({ result: "success", msg: "", waiting_period_threshold: 0, invite_required: true });
    // Back at the defaults: nothing of them stays stored.
    expect((await storedRealm()).settings).toEqual({});
  });
});

describe("PATCH /realm: changes and events", () => {
  it("stores name, description and settings, tells every active user, and register shows them", async () => {
    const watcher = queueClient(org, org.users.member2);
    await watcher.register({ event_types: ["realm"] });
    const cursors = await eventCursors(org, [org.users.guest.id]);
    const res = await patch(org.users.admin, {
      name: "Acme Renamed",
      description: "All about **Acme**",
      allow_message_editing: false,
      invite_to_stream_policy: 2,
      message_content_delete_limit_seconds: "unlimited",
      can_delete_any_message_group: { new: systemGroupId(org.realm.id, "role:moderators") },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      name: "updated",
      description: "updated",
      allow_message_editing: false,
      invite_to_stream_policy: 2,
      message_content_delete_limit_seconds: null,
      can_delete_any_message_group: systemGroupId(org.realm.id, "role:moderators"),
    });
    const expected = [
      { type: "realm", op: "update", property: "name", value: "Acme Renamed" },
      { type: "realm", op: "update", property: "description", value: "All about **Acme**" },
      { type: "realm", op: "update_dict", property: "default", data: { allow_message_editing: false } },
      { type: "realm", op: "update", property: "message_content_delete_limit_seconds", value: null },
      { type: "realm", op: "update", property: "invite_to_stream_policy", value: 2 },
      {
        type: "realm",
        op: "update_dict",
        property: "default",
        data: { can_delete_any_message_group: systemGroupId(org.realm.id, "role:moderators") },
      },
    ];
    expect(await eventsAfter(org, org.users.guest.id, cursors.get(org.users.guest.id)!)).toEqual(expected);
    const seen: Record<string, any>[] = [];
    while (seen.length < expected.length) seen.push(...(await watcher.poll()).filter((e) => e.type === "realm"));
    expect(seen.map(({ id: _id, ...e }) => e)).toEqual(expected);

    const reg = await org.api(org.users.member, "POST", "/register", { fetch_event_types: ["realm"] });
    expect(reg.body).toMatchObject({
      realm_name: "Acme Renamed",
      realm_allow_message_editing: false,
      realm_invite_to_stream_policy: 2,
      realm_message_content_delete_limit_seconds: null,
      realm_can_delete_any_message_group: systemGroupId(org.realm.id, "role:moderators"),
    });

    // Restore for the other tests.
    await patch(org.users.admin, {
      name: org.realm.name,
      description: org.realm.description,
      allow_message_editing: true,
      invite_to_stream_policy: 1,
      message_content_delete_limit_seconds: 600,
      can_delete_any_message_group: { new: systemGroupId(org.realm.id, "role:administrators") },
    });
    expect((await storedRealm()).settings).toEqual({});
  });

  it("answers {} and sends nothing when nothing changes, and lists unknown parameters", async () => {
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await patch(org.users.admin, { name: org.realm.name, edit_topic_policy: 5, frobnicate: 1, string_id: "x" });
    expect(res.body).toEqual({ result: "success", msg: "", ignored_parameters_unsupported: ["frobnicate", "string_id"] });
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });
});

describe("PATCH /realm: validation", () => {
  it.each([
    [{ edit_topic_policy: 9 }, "Invalid edit_topic_policy"],
    [{ create_web_public_stream_policy: 1 }, "Invalid create_web_public_stream_policy"],
    [{ name: "n".repeat(41) }, "name is too long (limit: 40 characters)"],
    [{ description: "d".repeat(1001) }, "description is too long (limit: 1000 characters)"],
    [{ message_content_edit_limit_seconds: -5 }, "Bad value for 'message_content_edit_limit_seconds': -5"],
    [{ message_content_edit_limit_seconds: "forever" }, "Bad value for 'message_content_edit_limit_seconds': forever"],
    [{ default_language: "xx" }, "Invalid language 'xx'"],
    [{ video_chat_provider: 9 }, "Invalid video_chat_provider 9"],
    [{ giphy_rating: 7 }, "Invalid giphy_rating 7"],
    [{ jitsi_server_url: "not a url" }, "jitsi_server_url is not an allowed_type"],
    [{ allow_edit_history: "maybe" }, 'Argument "allow_edit_history" is not valid JSON.'],
    [{ mandatory_topics: 1 }, "mandatory_topics is not a boolean"],
    [{ new_stream_announcements_stream_id: 99999 }, "Invalid channel ID"],
    [{ can_create_public_channel_group: { new: 12345 } }, "Invalid user group"],
    [{ can_create_public_channel_group: { new: -1 } }, "Invalid user group"],
    [{ demo_organization_scheduled_deletion_date: 5 }, "Invalid demo_organization_scheduled_deletion_date"],
  ])("refuses %j with %j and changes nothing", async (params, msg) => {
    const cursors = await eventCursors(org, [org.users.member.id]);
    // A valid change rides along: it must not be written either.
    const res = await patch(org.users.owner, { allow_edit_history: false, ...params });
    expect(res.body).toEqual(err(msg));
    expect((await storedRealm()).settings).toEqual({});
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([]);
  });

  it("refuses a system group a setting does not allow, and a stale 'old' value", async () => {
    const everyone = systemGroupId(org.realm.id, "role:everyone");
    const members = systemGroupId(org.realm.id, "role:members");
    const admins = systemGroupId(org.realm.id, "role:administrators");
    expect((await patch(org.users.admin, { can_create_public_channel_group: { new: everyone } })).body).toEqual(
      err("'can_create_public_channel_group' setting cannot be set to 'role:everyone' group."),
    );
    expect((await patch(org.users.admin, { can_create_public_channel_group: { new: admins, old: admins } })).body).toEqual(
      err("'old' value does not match the expected value."),
    );
    const ok = await patch(org.users.admin, { can_create_public_channel_group: { new: members, old: members } });
    expect(ok.body).toEqual({ result: "success", msg: "" });
  });
});

describe("PATCH /realm: settings take effect", () => {
  it("edit_topic_policy, message_content_edit_limit_seconds and allow_message_editing govern edits", async () => {
    const streamId = await createStreamId(org, org.users.member, "edit-policy-stream");
    const sent = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: streamId, topic: "t", content: "hi" });
    const id = sent.body.id as number;
    await patch(org.users.admin, { edit_topic_policy: 2 });
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { topic: "t2" })).body).toEqual(
      err("You don't have permission to edit this message"),
    );
    await patch(org.users.admin, { edit_topic_policy: 5, allow_message_editing: false });
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "edited" })).body).toEqual(
      err("Your organization has turned off message editing"),
    );
    await patch(org.users.admin, { allow_message_editing: true });
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "edited" })).body).toMatchObject({ result: "success" });
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { topic: "t2" })).body).toMatchObject({ result: "success" });
    expect((await storedRealm()).settings).toEqual({});
  });

  it("create_public_stream_policy and can_create_*_channel_group govern stream creation", async () => {
    const res = await patch(org.users.admin, { create_public_stream_policy: 2 });
    expect(res.body).toEqual({ result: "success", msg: "", create_public_stream_policy: 2, can_create_public_channel_group: systemGroupId(org.realm.id, "role:administrators") });
    const refused = await org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "policy-public" }] });
    expect(refused.body).toEqual(err("Insufficient permission"));
    // Private streams follow their own setting, still members.
    const privateOk = await org.api(org.users.member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "policy-private" }],
      invite_only: true,
    });
    expect(privateOk.body).toMatchObject({ result: "success" });
    await patch(org.users.admin, { create_public_stream_policy: 1 });
    const allowed = await org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "policy-public" }] });
    expect(allowed.body).toMatchObject({ result: "success" });
    expect((await storedRealm()).settings).toEqual({});
  });

  it("invite_to_stream_policy governs subscribing others", async () => {
    await createStreamId(org, org.users.member, "invite-policy");
    await patch(org.users.admin, { invite_to_stream_policy: 4 });
    const refused = await org.api(org.users.member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "invite-policy" }],
      principals: [org.users.member2.id],
    });
    expect(refused.body).toEqual(err("Insufficient permission"));
    const moderator = await org.api(org.users.moderator, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "invite-policy" }],
      principals: [org.users.member2.id],
    });
    expect(moderator.body).toMatchObject({ result: "success" });
    await patch(org.users.admin, { invite_to_stream_policy: 1 });
  });
});

describe("PATCH /realm: converting a demo organization", () => {
  it("refuses a normal organization, and administrators", async () => {
    expect((await patch(org.users.owner, { demo_organization_scheduled_deletion_date: null })).body).toEqual(
      err("Must be a demo organization."),
    );
    expect((await patch(org.users.admin, { demo_organization_scheduled_deletion_date: null })).body).toEqual(
      err("Must be an organization owner"),
    );
  });

  it("clears the deletion date of a demo organization for an owner, and tells everyone", async () => {
    await updateRealmFields(org.stack.deps, org.realm.id, { demo_organization_scheduled_deletion_date: 2_000_000_000 });
    const cursors = await eventCursors(org, [org.users.member.id]);
    const res = await patch(org.users.owner, { demo_organization_scheduled_deletion_date: null });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await storedRealm()).demo_organization_scheduled_deletion_date).toBeUndefined();
    expect(await eventsAfter(org, org.users.member.id, cursors.get(org.users.member.id)!)).toEqual([
      { type: "realm", op: "update_dict", property: "default", data: { demo_organization_scheduled_deletion_date: null } },
    ]);
    expect((await patch(org.users.owner, { demo_organization_scheduled_deletion_date: null })).body).toEqual(
      err("Must be a demo organization."),
    );
    // Nothing else of the realm changed.
    await applyRealmChange(org.stack.deps, org.realm.id, {});
    expect((await storedRealm()).settings).toEqual({});
  });
});
