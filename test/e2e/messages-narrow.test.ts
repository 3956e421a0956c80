import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { keys } from "../../shared/data/keys.js";
import { getUserMessages, putUserMessages } from "../../shared/data/user-messages.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes } from "./image-upload-helpers.js";
import { uploadFile } from "./uploads-helpers.js";

const org = useTestOrg();

/** The scenario every test reads (viewer: member2 unless said otherwise). */
const m: Record<string, number> = {};
let streamA = 0;

async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const res = await org.api(user, "POST", "/messages", params);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function createStream(creator: TestUser, name: string, principals: number[]): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

/** IDs of every message matching a narrow, oldest first. */
async function ids(narrow: unknown[], user: TestUser = org.users.member2): Promise<number[]> {
  const res = await org.api(user, "GET", "/messages", { anchor: "oldest", num_before: 0, num_after: 1000, narrow });
  expect(res.body).toMatchObject({ result: "success", found_oldest: true, found_newest: true });
  return (res.body.messages as { id: number }[]).map((x) => x.id);
}

async function setFlags(userId: number, messageId: number, change: (flags: string[]) => string[]) {
  const rows = await getUserMessages(org.stack.deps, userId, [messageId]);
  const row = rows.get(messageId)!;
  await putUserMessages(org.stack.deps, [{ ...row, flags: change(row.flags) }]);
}

beforeAll(async () => {
  const { member, member2, admin, moderator } = org.users;
  streamA = await createStream(member, "narrow-a", [member.id, member2.id]);
  await createStream(member, "narrow-b", [member.id, member2.id, admin.id]);
  m.link = await send(member, { type: "stream", to: "narrow-a", topic: "alpha", content: "see https://example.com/page" });
  m.plain = await send(member2, { type: "stream", to: "narrow-a", topic: "beta", content: "plain text" });
  m.mention = await send(member, { type: "stream", to: "narrow-b", topic: "Alpha", content: "hi @**Mia Member**" });
  m.resolved = await send(member2, { type: "stream", to: "narrow-a", topic: "✔ finished", content: "done" });
  m.dm = await send(member, { type: "private", to: [member2.id], content: "secret dm" });
  m.group = await send(member, { type: "private", to: [member2.id, moderator.id], content: "group dm" });
  // An uploaded image (an upload is an image by its bytes, so the file must exist).
  const cat = await uploadFile(org, member, "cat.png", await pngBytes(8, 8), "image/png");
  m.image = await send(member, { type: "stream", to: "narrow-b", topic: "files", content: `[cat.png](${cat})` });
  m.reacted = await send(member, { type: "stream", to: "narrow-b", topic: "files", content: "react to me" });
  // Admin's own conversation with member: invisible to member2.
  m.others = await send(admin, { type: "private", to: [member.id], content: "between others" });
  await org.stack.drainDeferredWork();

  // Flags and reactions set by their own endpoints elsewhere; here directly in the table.
  await setFlags(member2.id, m.plain, (f) => [...f, "starred"]);
  await setFlags(member2.id, m.link, (f) => [...f, "read"]);
  await org.stack.deps.db.send(
    new UpdateCommand({
      TableName: org.stack.deps.table,
      Key: keys.message(m.reacted),
      UpdateExpression: "SET reactions = :r",
      ExpressionAttributeValues: {
        ":r": [{ emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id: member2.id }],
      },
    }),
  );
});

const all = () => [m.link, m.plain, m.mention, m.resolved, m.dm, m.group, m.image, m.reacted].sort((a, b) => a - b);
const without = (...ex: number[]) => all().filter((x) => !ex.includes(x));

describe("narrow operators", () => {
  it("home (no narrow): the viewer's whole history, never other people's conversations", async () => {
    expect(await ids([])).toEqual(all());
    expect(await ids([{ operator: "in", operand: "home" }])).toEqual(all());
  });

  it("stream / channel, by name or ID, and negated", async () => {
    const inA = [m.link, m.plain, m.resolved];
    expect(await ids([{ operator: "stream", operand: "narrow-a" }])).toEqual(inA);
    expect(await ids([{ operator: "channel", operand: streamA }])).toEqual(inA);
    expect(await ids([["stream", "NARROW-A"]])).toEqual(inA);
    expect(await ids([{ operator: "stream", operand: "narrow-a", negated: true }])).toEqual(without(...inA));
  });

  it("topic (case-insensitive), with and without a stream, and negated", async () => {
    expect(await ids([["stream", "narrow-a"], ["topic", "alpha"]])).toEqual([m.link]);
    expect(await ids([{ operator: "topic", operand: "ALPHA" }])).toEqual([m.link, m.mention]);
    expect(await ids([["stream", "narrow-a"], { operator: "topic", operand: "alpha", negated: true }])).toEqual([
      m.plain,
      m.resolved,
    ]);
  });

  it("streams:public / channels:public, with shared history, and negated", async () => {
    const streamMessages = [m.link, m.plain, m.mention, m.resolved, m.image, m.reacted];
    expect(await ids([{ operator: "channels", operand: "public" }])).toEqual(streamMessages);
    // The administrator is not subscribed to narrow-a, yet reads its public history.
    const res = await org.api(org.users.admin, "GET", "/messages", {
      anchor: "oldest",
      num_before: 0,
      num_after: 100,
      narrow: [{ operator: "streams", operand: "public" }],
    });
    const byId = new Map((res.body.messages as { id: number; flags: string[] }[]).map((x) => [x.id, x.flags]));
    expect([...byId.keys()]).toEqual(streamMessages);
    expect(byId.get(m.link)).toEqual(["read", "historical"]);
    expect(byId.get(m.mention)).toEqual([]);
    expect(await ids([{ operator: "streams", operand: "public", negated: true }])).toEqual([m.dm, m.group]);
  });

  it("dm / pm-with by IDs or emails, group conversations, and negated", async () => {
    const { member, moderator } = org.users;
    expect(await ids([{ operator: "dm", operand: [member.id] }])).toEqual([m.dm]);
    expect(await ids([{ operator: "pm-with", operand: "member@test.example" }])).toEqual([m.dm]);
    expect(await ids([{ operator: "dm", operand: [moderator.id, member.id] }])).toEqual([m.group]);
    expect(await ids([{ operator: "dm", operand: "moderator@test.example,member@test.example" }])).toEqual([m.group]);
    expect(await ids([{ operator: "dm", operand: [member.id], negated: true }])).toEqual(without(m.dm));
    // A conversation that never happened matches nothing.
    expect(await ids([{ operator: "dm", operand: [org.users.owner.id] }])).toEqual([]);
  });

  it("dm-including and group-pm-with, and negated", async () => {
    const { member } = org.users;
    expect(await ids([{ operator: "dm-including", operand: member.id }])).toEqual([m.dm, m.group]);
    expect(await ids([{ operator: "group-pm-with", operand: "member@test.example" }])).toEqual([m.group]);
    expect(await ids([{ operator: "dm-including", operand: member.id, negated: true }])).toEqual(without(m.dm, m.group));
  });

  it("sender by ID or email, and negated", async () => {
    const { member, member2 } = org.users;
    const byMember = [m.link, m.mention, m.dm, m.group, m.image, m.reacted];
    expect(await ids([{ operator: "sender", operand: member.id }])).toEqual(byMember);
    expect(await ids([{ operator: "sender", operand: "member@test.example" }])).toEqual(byMember);
    expect(await ids([{ operator: "sender", operand: member2.id, negated: true }])).toEqual(byMember);
    // The sender index holds member's DM with admin, but member2 cannot see it.
    expect(await ids([["sender", "admin@test.example"]])).toEqual([]);
  });

  it("is:dm and is:private, and negated", async () => {
    expect(await ids([["is", "dm"]])).toEqual([m.dm, m.group]);
    expect(await ids([["is", "private"]])).toEqual([m.dm, m.group]);
    expect(await ids([{ operator: "is", operand: "dm", negated: true }])).toEqual(without(m.dm, m.group));
  });

  it("is:starred, and negated", async () => {
    expect(await ids([["is", "starred"]])).toEqual([m.plain]);
    expect(await ids([{ operator: "is", operand: "starred", negated: true }])).toEqual(without(m.plain));
  });

  it("is:mentioned, and negated", async () => {
    expect(await ids([["is", "mentioned"]])).toEqual([m.mention]);
    expect(await ids([{ operator: "is", operand: "mentioned", negated: true }])).toEqual(without(m.mention));
  });

  it("is:unread, and negated", async () => {
    expect(await ids([["is", "unread"]])).toEqual(without(m.link));
    expect(await ids([{ operator: "is", operand: "unread", negated: true }])).toEqual([m.link]);
  });

  it("is:alerted (no alert words yet), and negated", async () => {
    expect(await ids([["is", "alerted"]])).toEqual([]);
    expect(await ids([{ operator: "is", operand: "alerted", negated: true }])).toEqual(all());
  });

  it("is:resolved, and negated", async () => {
    expect(await ids([["is", "resolved"]])).toEqual([m.resolved]);
    expect(await ids([["stream", "narrow-a"], { operator: "is", operand: "resolved", negated: true }])).toEqual([
      m.link,
      m.plain,
    ]);
  });

  it("has:link, has:image, has:attachment, has:reaction, and negated", async () => {
    expect(await ids([["has", "link"]])).toEqual([m.link, m.image]);
    expect(await ids([["has", "image"]])).toEqual([m.image]);
    expect(await ids([["has", "attachment"]])).toEqual([m.image]);
    expect(await ids([["has", "reaction"]])).toEqual([m.reacted]);
    expect(await ids([{ operator: "has", operand: "link", negated: true }])).toEqual(without(m.link, m.image));
  });

  it("id, and negated", async () => {
    expect(await ids([{ operator: "id", operand: m.mention }])).toEqual([m.mention]);
    expect(await ids([{ operator: "id", operand: String(m.mention) }])).toEqual([m.mention]);
    expect(await ids([{ operator: "id", operand: m.others }])).toEqual([]);
    expect(await ids([{ operator: "id", operand: m.mention, negated: true }])).toEqual(without(m.mention));
  });

  it("with: the conversation the message is in, whatever conversation terms came along", async () => {
    const { member, member2 } = org.users;
    const withTerm = (id: number) => ({ operator: "with", operand: id });
    expect(await ids([["stream", "narrow-b"], ["topic", "files"], withTerm(m.plain)])).toEqual([m.plain]);
    expect(await ids([withTerm(m.link), { operator: "sender", operand: member.id }])).toEqual([m.link]);
    expect(await ids([withTerm(m.link), { operator: "sender", operand: member2.id }])).toEqual([]);
    expect(await ids([{ operator: "with", operand: String(m.dm) }])).toEqual([m.dm]);
    expect(await ids([withTerm(m.group)])).toEqual([m.group]);
    // A message the viewer cannot see: the narrow stands without it if it names a conversation.
    expect(await ids([["stream", "narrow-a"], ["topic", "alpha"], withTerm(m.others)])).toEqual([m.link]);
    const get = (narrow: unknown[]) =>
      org.api(member2, "GET", "/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow });
    expect((await get([withTerm(m.others)])).body).toEqual({
      result: "error",
      msg: "Invalid narrow operator: Invalid 'with' operator",
      code: "BAD_NARROW",
      desc: "Invalid 'with' operator",
    });
    expect((await get([withTerm(m.plain), withTerm(m.link)])).body).toMatchObject({
      result: "error",
      msg: "Invalid narrow operator combination: Duplicate 'with' operators.",
      code: "BAD_NARROW",
    });
    expect((await get([{ operator: "with", operand: "abc" }])).body).toMatchObject({ result: "error", code: "BAD_NARROW" });
  });

  it("near stands in for a missing anchor", async () => {
    const res = await org.api(org.users.member2, "GET", "/messages", {
      num_before: 1,
      num_after: 1,
      narrow: [["stream", "narrow-a"], { operator: "near", operand: String(m.plain) }],
    });
    expect(res.body).toMatchObject({ result: "success", anchor: m.plain, found_anchor: true });
    expect(res.body.messages.map((x: { id: number }) => x.id)).toEqual([m.link, m.plain, m.resolved]);
  });

  it("combines operators", async () => {
    const { member } = org.users;
    expect(await ids([["stream", "narrow-b"], ["sender", "member@test.example"], ["has", "image"]])).toEqual([m.image]);
    expect(await ids([["is", "unread"], { operator: "sender", operand: member.id }, ["is", "dm"]])).toEqual([m.dm, m.group]);
  });

  it("refuses unknown operands with BAD_NARROW", async () => {
    const get = (narrow: unknown[]) =>
      org.api(org.users.member2, "GET", "/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow });
    expect((await get([["stream", "nope"]])).body).toEqual({
      result: "error",
      msg: "Invalid narrow operator: unknown channel nope",
      code: "BAD_NARROW",
      desc: "unknown channel nope",
    });
    expect((await get([["sender", "ghost@test.example"]])).body.msg).toBe("Invalid narrow operator: unknown user ghost@test.example");
    expect((await get([{ operator: "dm", operand: [999999] }])).body.msg).toBe("Invalid narrow operator: unknown user in [999999]");
    expect((await get([["bogus", "x"]])).body.msg).toBe("Invalid narrow operator: unknown operator bogus");
    const notJson = await org.api(org.users.member2, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: "[" });
    expect(notJson.body).toMatchObject({ result: "error", msg: 'Argument "narrow" is not valid JSON.' });
  });

  it("a private stream without shared history yields only the viewer's own rows; non-subscribers see nothing", async () => {
    const { member, member2, moderator } = org.users;
    const res = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "narrow-secret" }],
      invite_only: true,
      history_public_to_subscribers: false,
      principals: [member.id],
    });
    expect(res.body.result).toBe("success");
    const before = await send(member, { type: "stream", to: "narrow-secret", topic: "t", content: "before you came" });
    const add = await org.api(member, "POST", "/users/me/subscriptions", {
      subscriptions: [{ name: "narrow-secret" }],
      principals: [member2.id],
    });
    expect(add.body.result).toBe("success");
    const after = await send(member, { type: "stream", to: "narrow-secret", topic: "t", content: "welcome" });
    expect(await ids([["stream", "narrow-secret"]], member)).toEqual([before, after]);
    expect(await ids([["stream", "narrow-secret"]], member2)).toEqual([after]);
    expect(await ids([["stream", "narrow-secret"]], moderator)).toEqual([]);
    const single = await org.api(member2, "GET", `/messages/${before}`);
    expect(single.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
  });

  it("guests read only streams they are subscribed to", async () => {
    const { guest } = org.users;
    expect(await ids([["stream", "narrow-a"]], guest)).toEqual([]);
    expect(await ids([["streams", "public"]], guest)).toEqual([]);
    const single = await org.api(guest, "GET", `/messages/${m.link}`);
    expect(single.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
  });

});
