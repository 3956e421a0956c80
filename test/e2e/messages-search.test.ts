import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { keys } from "../../shared/data/keys.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();
const m: Record<string, number> = {};

async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const res = await org.api(user, "POST", "/messages", params);
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function search(user: TestUser, narrow: unknown[], extra: Record<string, unknown> = {}) {
  const res = await org.api(user, "GET", "/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow, ...extra });
  expect(res.body.result).toBe("success");
  return res.body.messages as Record<string, any>[];
}

beforeAll(async () => {
  const { member, member2, admin } = org.users;
  for (const [name, principals] of [
    ["search-a", [member.id, member2.id]],
    ["search-b", [member.id]],
  ] as const) {
    const res = await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals });
    expect(res.body.result).toBe("success");
  }
  m.cool = await send(member, { type: "stream", to: "search-a", topic: "Summer plans", content: "Cool **sunglasses** for the beach" });
  m.coolLink = await send(member, {
    type: "stream",
    to: "search-a",
    topic: "links",
    content: "[cool shop](https://cool.example.com/sunglasses)",
  });
  m.other = await send(member2, { type: "stream", to: "search-a", topic: "winter", content: "warm coats only" });
  m.topicOnly = await send(member, { type: "stream", to: "search-a", topic: "Sunglasses review", content: "five stars" });
  m.unsubscribed = await send(member, { type: "stream", to: "search-b", topic: "t", content: "cool sunglasses elsewhere" });
  m.dm = await send(member, { type: "private", to: [member2.id], content: "my cool sunglasses broke" });
  m.othersDm = await send(member, { type: "private", to: [admin.id], content: "cool sunglasses secret" });
  // Postings are written by deferred work.
  await org.stack.drainDeferredWork();
});

describe("search narrow", () => {
  it("needs every word, in content or topic, case-insensitively, within the viewer's history", async () => {
    const found = await search(org.users.member2, [{ operator: "search", operand: "COOL sunglasses" }]);
    // Not the search-b message (member2 is not subscribed, no stream term) nor others' DMs.
    expect(found.map((x) => x.id)).toEqual([m.cool, m.coolLink, m.dm]);
    const topicWord = await search(org.users.member2, [["search", "review"]]);
    expect(topicWord.map((x) => x.id)).toEqual([m.topicOnly]);
    expect(await search(org.users.member2, [["search", "sunglasses umbrellas"]])).toEqual([]);
  });

  it("highlights matches in match_content (text only, never inside tags) and match_subject", async () => {
    const [cool, link] = await search(org.users.member2, [{ operator: "search", operand: "cool sunglasses" }]);
    expect(cool!.match_content).toBe(
      '<p><span class="highlight">Cool</span> <strong><span class="highlight">sunglasses</span></strong> for the beach</p>',
    );
    expect(cool!.match_subject).toBe("Summer plans");
    expect(link!.match_content).toContain('href="https://cool.example.com/sunglasses"');
    expect(link!.match_content).toContain('<span class="highlight">cool</span> shop');
    const [topicOnly] = await search(org.users.member2, [["search", "sunglasses"], ["topic", "Sunglasses review"], ["stream", "search-a"]]);
    expect(topicOnly!.match_subject).toBe('<span class="highlight">Sunglasses</span> review');
    expect(topicOnly!.match_content).toBe("<p>five stars</p>");
  });

  it("combines with stream narrows, including shared history of public streams", async () => {
    const inB = await search(org.users.member2, [["stream", "search-b"], ["search", "sunglasses"]]);
    expect(inB.map((x) => x.id)).toEqual([m.unsubscribed]);
    expect(inB[0]!.flags).toEqual(["read", "historical"]);
    const inA = await search(org.users.member2, [["stream", "search-a"], ["search", "sunglasses"]]);
    expect(inA.map((x) => x.id)).toEqual([m.cool, m.coolLink, m.topicOnly]);
  });

  it("negated search excludes matches", async () => {
    const res = await search(org.users.member2, [["stream", "search-a"], { operator: "search", operand: "sunglasses", negated: true }]);
    expect(res.map((x) => x.id)).toEqual([m.other]);
    expect(res[0]).not.toHaveProperty("match_content");
  });

  it("pages through postings around an anchor", async () => {
    const older = await org.api(org.users.member2, "GET", "/messages", {
      anchor: m.dm,
      num_before: 1,
      num_after: 0,
      include_anchor: false,
      narrow: [["search", "sunglasses"]],
    });
    expect(older.body.messages.map((x: { id: number }) => x.id)).toEqual([m.topicOnly]);
    expect(older.body.found_oldest).toBe(false);
  });

  it("keeps one posting per distinct word of each message", async () => {
    const out = await org.stack.deps.db.send(
      new QueryCommand({
        TableName: org.stack.deps.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.searchTerm(org.realm.id, "sunglasses").pk },
      }),
    );
    const ids = (out.Items ?? []).map((i) => Number(i.message_id));
    expect(ids).toEqual([m.cool, m.coolLink, m.topicOnly, m.unsubscribed, m.dm, m.othersDm]);
  });
});
