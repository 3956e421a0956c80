import { beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import { systemGroupId } from "../../shared/domain/realm-settings.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { createStreamId, queueClient } from "./streams-helpers.js";

const org = useTestOrg();

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

let outer: Record<string, any>;
let inner: Record<string, any>;

async function groupNamed(name: string): Promise<Record<string, any>> {
  const res = await org.api(org.users.owner, "GET", "/user_groups");
  return res.body.user_groups.find((g: Record<string, any>) => g.name === name);
}

async function send(user: TestUser, content: string, topic = "mentions"): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: "group-mentions", topic, content });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function flagsOf(user: TestUser, messageId: number): Promise<string[]> {
  return (await getUserMessages(org.stack.deps, user.id, [messageId])).get(messageId)!.flags;
}

beforeAll(async () => {
  const { owner, admin, moderator, member, member2, guest } = org.users;
  await createStreamId(org, member, "group-mentions", {
    principals: [owner.id, admin.id, moderator.id, member.id, member2.id, guest.id],
  });
  // outer (member2) ⊃ inner (moderator): mentioning outer reaches both.
  for (const [name, members] of [
    ["Inner Circle", [moderator.id]],
    ["Outer Circle", [member2.id]],
  ] as const) {
    const res = await org.api(member, "POST", "/user_groups/create", { name, description: "", members });
    expect(res.body).toEqual({ result: "success", msg: "" });
  }
  inner = await groupNamed("Inner Circle");
  outer = await groupNamed("Outer Circle");
  const sub = await org.api(admin, "POST", `/user_groups/${outer.id}/subgroups`, { add: [inner.id] });
  expect(sub.body).toEqual({ result: "success", msg: "" });
});

describe("group mentions on send", () => {
  it("renders @*group* as Zulip does and flags every member, recursively through subgroups", async () => {
    const { member, member2, moderator, admin, guest } = org.users;
    const watcher = queueClient(org, moderator);
    await watcher.register({ event_types: ["message"] });
    const id = await send(member, "hi @*outer circle*, see this");
    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.rendered_content).toBe(
      `<p>hi <span class="user-group-mention" data-user-group-id="${outer.id}">@Outer Circle</span>, see this</p>`,
    );
    expect(await flagsOf(member2, id)).toContain("mentioned");
    expect(await flagsOf(moderator, id)).toContain("mentioned");
    expect(await flagsOf(admin, id)).not.toContain("mentioned");
    expect(await flagsOf(guest, id)).not.toContain("mentioned");
    const event = await watcher.waitFor((e) => e.type === "message" && e.message.id === id, { dontBlock: true });
    expect(event.flags).toContain("mentioned");
  });

  it("renders a silent @_*group* without @ and flags nobody", async () => {
    const { member, member2, moderator } = org.users;
    const id = await send(member, "fyi @_*Inner Circle*");
    const stored = (await messageById(org.stack.deps, id))!;
    expect(stored.rendered_content).toBe(
      `<p>fyi <span class="user-group-mention silent" data-user-group-id="${inner.id}">Inner Circle</span></p>`,
    );
    expect(await flagsOf(moderator, id)).not.toContain("mentioned");
    expect(await flagsOf(member2, id)).not.toContain("mentioned");
  });

  it("leaves an unknown group as text; system groups (can_mention_group role:nobody) only silently", async () => {
    const { member, owner, guest } = org.users;
    const unknown = await send(member, "hello @*no such group*");
    expect((await messageById(org.stack.deps, unknown))!.rendered_content).toBe("<p>hello @<em>no such group</em></p>");
    for (const who of [member, owner]) {
      const loud = await org.api(who, "POST", "/messages", {
        type: "stream",
        to: "group-mentions",
        topic: "mentions",
        content: "admins: @*role:administrators*",
      });
      expect(loud.body).toEqual(err("You are not allowed to mention user group 'role:administrators'."));
    }
    const id = await send(member, "admins: @_*role:administrators*");
    expect((await messageById(org.stack.deps, id))!.rendered_content).toBe(
      `<p>admins: <span class="user-group-mention silent" data-user-group-id="${systemGroupId(org.realm.id, "role:administrators")}">role:administrators</span></p>`,
    );
    expect(await flagsOf(owner, id)).not.toContain("mentioned");
    expect(await flagsOf(guest, id)).not.toContain("mentioned");
  });

  it("refuses a mention the sender may not make (can_mention_group), but not a silent one", async () => {
    const { member, admin, member2 } = org.users;
    const res = await org.api(member, "POST", "/user_groups/create", {
      name: "Admins Only",
      description: "",
      members: [member2.id],
      can_mention_group: systemGroupId(org.realm.id, "role:administrators"),
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const refused = await org.api(member, "POST", "/messages", {
      type: "stream",
      to: "group-mentions",
      topic: "refused",
      content: "@*Admins Only* ping",
    });
    expect(refused.body).toEqual(err("You are not allowed to mention user group 'Admins Only'."));
    const silent = await send(member, "@_*Admins Only* quietly", "refused");
    expect(await flagsOf(member2, silent)).not.toContain("mentioned");
    const allowed = await send(admin, "@*Admins Only* ping", "refused");
    expect(await flagsOf(member2, allowed)).toContain("mentioned");
  });

  it("flags group members in direct messages too", async () => {
    const { member, member2 } = org.users;
    const res = await org.api(member, "POST", "/messages", {
      type: "private",
      to: JSON.stringify([member2.id]),
      content: "@*Outer Circle* direct",
    });
    expect(res.body).toMatchObject({ result: "success" });
    expect(await flagsOf(member2, res.body.id)).toContain("mentioned");
  });
});

describe("group mentions on edit", () => {
  it("sets and clears the mentioned flag as the content gains and loses the mention", async () => {
    const { member, member2, moderator } = org.users;
    const id = await send(member, "plain words", "edit");
    expect(await flagsOf(moderator, id)).not.toContain("mentioned");
    const watcher = queueClient(org, moderator);
    await watcher.register({ event_types: ["update_message"] });
    const added = await org.api(member, "PATCH", `/messages/${id}`, { content: "now @*Outer Circle*" });
    expect(added.body).toEqual({ result: "success", msg: "" });
    expect(await flagsOf(moderator, id)).toContain("mentioned");
    expect(await flagsOf(member2, id)).toContain("mentioned");
    const event = await watcher.waitFor((e) => e.type === "update_message" && e.message_id === id, { dontBlock: true });
    expect(event.flags).toContain("mentioned");
    const removed = await org.api(member, "PATCH", `/messages/${id}`, { content: "now @_*Outer Circle*" });
    expect(removed.body).toEqual({ result: "success", msg: "" });
    expect(await flagsOf(moderator, id)).not.toContain("mentioned");
    expect(await flagsOf(member2, id)).not.toContain("mentioned");
  });

  it("refuses an edit that adds a mention the editor may not make", async () => {
    const { member } = org.users;
    const id = await send(member, "before", "edit-refused");
    const res = await org.api(member, "PATCH", `/messages/${id}`, { content: "@*Admins Only* after" });
    expect(res.body).toEqual(err("You are not allowed to mention user group 'Admins Only'."));
    expect((await messageById(org.stack.deps, id))!.content).toBe("before");
  });
});
