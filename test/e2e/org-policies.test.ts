import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { getRealm, updateRealmFields } from "../../shared/data/realms.js";
import { updateUserFields } from "../../shared/data/users.js";
import { systemClock } from "../../shared/deps.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream } from "./streams-helpers.js";

// Organization settings changed through PATCH /realm take effect where the
// other parts of the server check them: wildcard mentions, user-group
// editing, full membership, message edit limits.

const org = useTestOrg();
const patch = (user: TestUser, params: Record<string, unknown>) => org.api(user, "PATCH", "/realm", params);
const coded = (msg: string, code: string) => ({ result: "error", msg, code });
const bad = (msg: string) => coded(msg, "BAD_REQUEST");

let crowd: TestUser[] = [];

async function send(user: TestUser, stream: string, topic: string, content: string) {
  return org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
}

async function newestIn(stream: string, topic: string): Promise<number[]> {
  const res = await org.api(org.users.owner, "GET", "/messages", {
    anchor: "newest",
    num_before: 50,
    num_after: 0,
    narrow: JSON.stringify([
      ["stream", stream],
      ["topic", topic],
    ]),
  });
  expect(res.body.result).toBe("success");
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

beforeAll(async () => {
  for (let i = 0; i < 10; i++) crowd.push(await org.createUser(`crowd-${i}`));
  const { owner, admin, moderator, member, member2, guest } = org.users;
  // 16 subscribers: above Zulip's wildcard threshold of 15.
  const everyone = [owner, admin, moderator, member, member2, guest, ...crowd].map((u) => u.id);
  await createStream(org, owner, "big-room", { principals: everyone });
  await createStream(org, owner, "small-room", { principals: [owner.id, member.id, member2.id] });
});

afterEach(async () => {
  org.stack.deps.clock = systemClock;
  await updateRealmFields(org.stack.deps, org.realm.id, { settings: {} });
});

describe("wildcard_mention_policy", () => {
  it("refuses a member's channel wildcard in a large channel under the default (administrators), nothing sent", async () => {
    const before = await newestIn("big-room", "wild");
    for (const content of ["hi @**all**", "hi @**everyone**", "hi @**channel**", "hi @**stream**"]) {
      const res = await send(org.users.member, "big-room", "wild", content);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        coded("You do not have permission to use channel wildcard mentions in this channel.", "STREAM_WILDCARD_MENTION_NOT_ALLOWED"),
      );
    }
    expect(await newestIn("big-room", "wild")).toEqual(before);
    // An administrator may; anyone may in a channel of at most 15 subscribers.
    expect((await send(org.users.admin, "big-room", "wild", "hi @**all**")).body.result).toBe("success");
    expect((await send(org.users.member, "small-room", "wild", "hi @**all**")).body.result).toBe("success");
    // A silent wildcard is not a mention.
    expect((await send(org.users.member, "big-room", "wild", "hi @_**all**")).body.result).toBe("success");
  });

  it("follows the setting as PATCH /realm changes it", async () => {
    expect((await patch(org.users.admin, { wildcard_mention_policy: 7 })).body.result).toBe("success");
    expect((await send(org.users.member, "big-room", "wild7", "hi @**all**")).status).toBe(400);
    expect((await send(org.users.moderator, "big-room", "wild7", "hi @**all**")).body.result).toBe("success");

    expect((await patch(org.users.admin, { wildcard_mention_policy: 2 })).body.result).toBe("success");
    expect((await send(org.users.member, "big-room", "wild2", "hi @**all**")).body.result).toBe("success");
    expect((await send(org.users.guest, "big-room", "wild2", "hi @**all**")).status).toBe(400);

    expect((await patch(org.users.admin, { wildcard_mention_policy: 1 })).body.result).toBe("success");
    expect((await send(org.users.guest, "big-room", "wild1", "hi @**all**")).body.result).toBe("success");

    expect((await patch(org.users.admin, { wildcard_mention_policy: 6 })).body.result).toBe("success");
    expect((await send(org.users.owner, "big-room", "wild6", "hi @**all**")).status).toBe(400);
  });

  it("full members (3): a member younger than waiting_period_threshold is refused", async () => {
    expect((await patch(org.users.admin, { wildcard_mention_policy: 3 })).body.result).toBe("success");
    expect((await patch(org.users.owner, { waiting_period_threshold: 10 })).body.result).toBe("success");
    const res = await send(org.users.member, "big-room", "wild3", "hi @**all**");
    expect(res.body.code).toBe("STREAM_WILDCARD_MENTION_NOT_ALLOWED");
    // Eleven days later the member is a full member.
    org.stack.deps.clock = { now: () => Date.now() + 11 * 86_400_000 };
    expect((await send(org.users.member, "big-room", "wild3", "hi @**all**")).body.result).toBe("success");
  });

  it("refuses a topic wildcard in a topic with more than 15 participants, allows it in a smaller one", async () => {
    const topic = "crowded";
    const { owner, admin, moderator, member2, guest } = org.users;
    for (const u of [owner, admin, moderator, member2, guest, ...crowd]) {
      expect((await send(u, "big-room", topic, "here")).body.result).toBe("success");
    }
    // 15 participants so far: the member would be the 16th.
    const res = await send(org.users.member, "big-room", topic, "hey @**topic**");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      coded("You do not have permission to use topic wildcard mentions in this topic.", "TOPIC_WILDCARD_MENTION_NOT_ALLOWED"),
    );
    expect((await send(org.users.admin, "big-room", topic, "hey @**topic**")).body.result).toBe("success");
    expect((await send(org.users.member, "big-room", "quiet", "hey @**topic**")).body.result).toBe("success");
  });
});

describe("wildcard_mention_policy on edit", () => {
  it("refuses an edit adding a channel wildcard in a large channel; the message keeps its content", async () => {
    const id = (await send(org.users.member, "big-room", "edit-wild", "plain")).body.id as number;
    const res = await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "now @**everyone**" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      coded("You do not have permission to use channel wildcard mentions in this channel.", "STREAM_WILDCARD_MENTION_NOT_ALLOWED"),
    );
    expect((await messageById(org.stack.deps, id))!.content).toBe("plain");
    expect((await patch(org.users.admin, { wildcard_mention_policy: 2 })).body.result).toBe("success");
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "now @**everyone**" })).body.result).toBe("success");
  });
});

describe("user_group_edit_policy through PATCH /realm", () => {
  it("administrators only (2): a member is refused creating and changing groups; an administrator may", async () => {
    const made = await org.api(org.users.member, "POST", "/user_groups/create", {
      name: "policy-group",
      description: "d",
      members: JSON.stringify([org.users.member.id]),
    });
    expect(made.body).toEqual({ result: "success", msg: "" });
    const listed = await org.api(org.users.admin, "GET", "/user_groups");
    const groupId = (listed.body.user_groups as { id: number; name: string }[]).find((g) => g.name === "policy-group")!.id;

    expect((await patch(org.users.admin, { user_group_edit_policy: 2 })).body.result).toBe("success");
    const create = await org.api(org.users.member, "POST", "/user_groups/create", {
      name: "policy-group-2",
      description: "d",
      members: JSON.stringify([org.users.member.id]),
    });
    expect(create.status).toBe(400);
    expect(create.body).toEqual(bad("Insufficient permission"));
    const rename = await org.api(org.users.member, "PATCH", `/user_groups/${groupId}`, { name: "renamed" });
    expect(rename.body).toEqual(bad("Insufficient permission"));
    const add = await org.api(org.users.member, "POST", `/user_groups/${groupId}/members`, { add: JSON.stringify([org.users.member2.id]) });
    expect(add.body).toEqual(bad("Insufficient permission"));
    const groups = await org.api(org.users.admin, "GET", "/user_groups");
    const group = (groups.body.user_groups as { id: number; name: string; members: number[] }[]).find((g) => g.id === groupId)!;
    expect(group).toMatchObject({ name: "policy-group", members: [org.users.member.id] });

    expect((await org.api(org.users.admin, "PATCH", `/user_groups/${groupId}`, { name: "renamed" })).body.result).toBe("success");
  });

  it("full members (3): a member younger than waiting_period_threshold is refused, older ones may", async () => {
    expect((await patch(org.users.admin, { user_group_edit_policy: 3 })).body.result).toBe("success");
    expect((await patch(org.users.owner, { waiting_period_threshold: 5 })).body.result).toBe("success");
    const params = { name: "young-group", description: "d", members: JSON.stringify([org.users.member.id]) };
    const young = await org.api(org.users.member, "POST", "/user_groups/create", params);
    expect(young.body).toEqual(bad("Insufficient permission"));
    // Moderators are full members whatever their age.
    expect((await org.api(org.users.moderator, "POST", "/user_groups/create", { ...params, name: "mod-group" })).body.result).toBe(
      "success",
    );
    // A member who joined six days ago is a full member.
    const joined = Math.floor(Date.now() / 1000) - 6 * 86_400;
    await updateUserFields(org.stack.deps, org.realm.id, org.users.member2.id, { date_joined: joined });
    expect((await org.api(org.users.member2, "POST", "/user_groups/create", { ...params, name: "old-group" })).body.result).toBe(
      "success",
    );
  });
});

describe("message edit limits through PATCH /realm", () => {
  it("message_content_edit_limit_seconds set by an administrator decides edits as the clock moves", async () => {
    const sent = await send(org.users.member, "small-room", "edits", "first");
    const id = sent.body.id as number;
    expect((await patch(org.users.admin, { message_content_edit_limit_seconds: 120 })).body.result).toBe("success");
    const stored = (await getRealm(org.stack.deps, org.realm.id))!;
    expect(stored.settings).toMatchObject({ message_content_edit_limit_seconds: 120 });

    const base = Date.now();
    // Zulip allows 20 s of grace beyond the limit.
    org.stack.deps.clock = { now: () => base + 100_000 };
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "second" })).body.result).toBe("success");
    org.stack.deps.clock = { now: () => base + 200_000 };
    const late = await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "third" });
    expect(late.body).toEqual(bad("The time limit for editing this message has passed"));

    // "unlimited" lifts the limit.
    expect((await patch(org.users.admin, { message_content_edit_limit_seconds: "unlimited" })).body.result).toBe("success");
    expect((await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "fourth" })).body.result).toBe("success");

    expect((await patch(org.users.admin, { allow_message_editing: false })).body.result).toBe("success");
    const off = await org.api(org.users.member, "PATCH", `/messages/${id}`, { content: "fifth" });
    expect(off.body).toEqual(bad("Your organization has turned off message editing"));
  });

  it("message_content_delete_limit_seconds set by an administrator decides deletes", async () => {
    expect((await patch(org.users.admin, { delete_own_message_policy: 1, message_content_delete_limit_seconds: 60 })).body.result).toBe(
      "success",
    );
    const id = (await send(org.users.member, "small-room", "deletes", "x")).body.id as number;
    const base = Date.now();
    org.stack.deps.clock = { now: () => base + 120_000 };
    const late = await org.api(org.users.member, "DELETE", `/messages/${id}`);
    expect(late.body).toEqual(bad("The time limit for deleting this message has passed"));
    org.stack.deps.clock = systemClock;
    expect((await org.api(org.users.member, "DELETE", `/messages/${id}`)).body.result).toBe("success");
  });
});



describe("group-valued realm settings naming user-created groups", () => {
  async function makeGroup(name: string, members: number[], subgroups: number[] = []): Promise<number> {
    const made = await org.api(org.users.admin, "POST", "/user_groups/create", { name, description: "", members: JSON.stringify(members) });
    expect(made.body).toEqual({ result: "success", msg: "" });
    const listed = await org.api(org.users.admin, "GET", "/user_groups");
    const id = (listed.body.user_groups as { id: number; name: string }[]).find((g) => g.name === name)!.id;
    if (subgroups.length > 0) {
      const res = await org.api(org.users.admin, "POST", `/user_groups/${id}/subgroups`, { add: JSON.stringify(subgroups) });
      expect(res.body.result).toBe("success");
    }
    return id;
  }

  const createStreamAs = (user: TestUser, name: string) =>
    org.api(user, "POST", "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name }]) });
  const registerOf = async (user: TestUser) => (await org.api(user, "POST", "/register", { fetch_event_types: '["realm_user"]' })).body;

  it("can_create_public_channel_group: members of the group (through subgroups too) may create channels, others not", async () => {
    const inner = await makeGroup("creators-inner", [org.users.member2.id]);
    const outer = await makeGroup("creators", [org.users.moderator.id], [inner]);
    const res = await patch(org.users.admin, { can_create_public_channel_group: JSON.stringify({ new: outer }) });
    expect(res.body).toEqual({ result: "success", msg: "", can_create_public_channel_group: outer });
    expect((await getRealm(org.stack.deps, org.realm.id))!.settings).toMatchObject({ can_create_public_channel_group: outer });

    const refused = await createStreamAs(org.users.member, "not-in-group");
    expect(refused.body).toEqual(bad("Insufficient permission"));
    expect((await registerOf(org.users.member)).can_create_public_streams).toBe(false);
    // member2 belongs through the subgroup; the moderator directly.
    expect((await createStreamAs(org.users.member2, "via-subgroup")).body.result).toBe("success");
    expect((await createStreamAs(org.users.moderator, "direct-member")).body.result).toBe("success");
    expect((await registerOf(org.users.member2)).can_create_public_streams).toBe(true);
  });

  it("can_delete_any_message_group: a member of the group deletes others' messages", async () => {
    const group = await makeGroup("deleters", [org.users.member2.id]);
    expect((await patch(org.users.admin, { can_delete_any_message_group: JSON.stringify({ new: group }) })).body.result).toBe("success");
    const id = (await send(org.users.member, "small-room", "del-any", "mine")).body.id as number;
    const byOwner = await org.api(org.users.owner, "DELETE", `/messages/${id}`);
    expect(byOwner.body).toEqual(bad("You don't have permission to delete this message"));
    expect((await org.api(org.users.member2, "DELETE", `/messages/${id}`)).body.result).toBe("success");
  });

  it("refuses a user-created group where Zulip requires a system group, and unknown groups; nothing stored", async () => {
    const group = await makeGroup("not-system", [org.users.member.id]);
    for (const name of ["can_create_web_public_channel_group", "can_access_all_users_group"]) {
      const res = await patch(org.users.owner, { [name]: JSON.stringify({ new: group }) });
      expect(res.body).toEqual(bad(`'${name}' must be a system user group.`));
    }
    const res = await patch(org.users.owner, { create_multiuse_invite_group: JSON.stringify({ new: group }) });
    expect(res.body).toEqual(bad("'create_multiuse_invite_group' must be a system user group."));
    const unknown = await patch(org.users.admin, { can_create_private_channel_group: JSON.stringify({ new: group + 1000 }) });
    expect(unknown.body).toEqual(bad("Invalid user group"));
    expect((await getRealm(org.stack.deps, org.realm.id))!.settings ?? {}).toEqual({});
  });

  it("register reports which settings require system groups, and system groups' defaults", async () => {
    const body = (await org.api(org.users.member, "POST", "/register", { fetch_event_types: '["realm"]' })).body;
    const settings = body.server_supported_permission_settings;
    expect(settings.realm.can_create_public_channel_group.require_system_group).toBe(false);
    expect(settings.realm.can_create_web_public_channel_group.require_system_group).toBe(true);
    expect(settings.group.can_mention_group).toMatchObject({ default_group_name: "role:everyone", default_for_system_groups: "role:nobody" });
    expect(settings.group.can_manage_group).toMatchObject({ default_group_name: "role:nobody", default_for_system_groups: "role:nobody" });
  });
});

describe("create_public_stream_policy full members (3)", () => {
  it("a member in the waiting period may not create channels, and register says so", async () => {
    expect((await patch(org.users.admin, { create_public_stream_policy: 3 })).body.result).toBe("success");
    expect((await patch(org.users.owner, { waiting_period_threshold: 10 })).body.result).toBe("success");
    const young = await org.createUser("young-creator");
    const res = await org.api(young, "POST", "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "young-room" }]) });
    expect(res.body).toEqual(bad("Insufficient permission"));
    const reg = (await org.api(young, "POST", "/register", { fetch_event_types: '["realm_user"]' })).body;
    expect(reg.can_create_public_streams).toBe(false);
    org.stack.deps.clock = { now: () => Date.now() + 11 * 86_400_000 };
    const later = await org.api(young, "POST", "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "young-room" }]) });
    expect(later.body.result).toBe("success");
  });
});
