import { describe, expect, it } from "vitest";
import type { SeedName } from "../support/local-stack.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStream } from "./streams-helpers.js";

/**
 * Every request value that becomes part of a DynamoDB key (topics, stream
 * and group names, emails, emoji names, queue IDs, narrow operands), sent at
 * about 1 MB, far past DynamoDB's 2,048-byte partition and 1,024-byte sort
 * key limits: each answers as Zulip does, a 4xx with Zulip's wording or a
 * success where Zulip truncates the value (topics), never a 5xx.
 */

const org = useTestOrg();
const MB = "k".repeat(1_000_000);
/** Zulip's `truncate_topic`: 60 characters, the last three an ellipsis. */
const TRUNCATED = "k".repeat(57) + "...";

interface Case {
  who: SeedName | null;
  method: string;
  path: string;
  params: Record<string, unknown>;
  status: number;
  /** The whole body, with `<MB>` standing for the 1 MB value. */
  body: Record<string, unknown>;
}

const success = { result: "success", msg: "" };
const badRequest = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("a ~1 MB value wherever a request value becomes a key", () => {
  it("answers each with Zulip's error or its truncation, never 5xx", async () => {
    // Prepare
    const { member } = org.users;
    const stream = await createStream(org, member, "keys");
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "keys", topic: "t", content: "hi" });
    const id = sent.body.id as number;
    const narrowFlags = (operator: string) => ({
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator, operand: MB }],
      op: "add",
      flag: "read",
    });
    const noneProcessed = {
      ...success,
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    };
    const cases: Case[] = [
      { who: "member", method: "POST", path: "/mark_topic_as_read", params: { stream_id: stream.stream_id, topic_name: MB }, status: 400, body: badRequest("No such topic '<MB>'") },
      { who: "member", method: "POST", path: "/user_topics", params: { stream_id: stream.stream_id, topic: MB, visibility_policy: 1 }, status: 200, body: success },
      { who: "member", method: "POST", path: "/messages/flags/narrow", params: narrowFlags("topic"), status: 200, body: noneProcessed },
      { who: "member", method: "POST", path: "/messages/flags/narrow", params: narrowFlags("search"), status: 200, body: noneProcessed },
      {
        who: "member", method: "POST", path: "/messages/flags/narrow", params: narrowFlags("stream"), status: 400,
        body: { result: "error", msg: "Invalid narrow operator: unknown channel <MB>", code: "BAD_NARROW", desc: "unknown channel <MB>" },
      },
      {
        who: "member", method: "POST", path: "/messages/flags/narrow", params: narrowFlags("sender"), status: 400,
        body: { result: "error", msg: "Invalid narrow operator: unknown user <MB>", code: "BAD_NARROW", desc: "unknown user <MB>" },
      },
      {
        who: "member", method: "POST", path: "/messages", params: { type: "stream", to: MB, topic: "t", content: "x" }, status: 400,
        body: { result: "error", msg: "Channel '<MB>' does not exist", code: "STREAM_DOES_NOT_EXIST", stream: "<MB>" },
      },
      { who: "member", method: "POST", path: "/messages", params: { type: "private", to: MB, content: "x" }, status: 400, body: badRequest("Invalid email '<MB>'") },
      { who: "member", method: "POST", path: "/users/me/subscriptions", params: { subscriptions: [{ name: MB }] }, status: 400, body: badRequest("Channel name too long (limit: 60 characters).") },
      { who: "member", method: "DELETE", path: "/users/me/subscriptions", params: { subscriptions: [MB] }, status: 400, body: badRequest("Channel name too long (limit: 60 characters).") },
      { who: "member", method: "POST", path: "/user_groups/create", params: { name: MB, description: "d", members: [member.id] }, status: 400, body: badRequest("User group name cannot exceed 100 characters.") },
      {
        who: "member", method: "DELETE", path: "/events", params: { queue_id: MB }, status: 400,
        body: { result: "error", msg: "Bad event queue ID: <MB>", code: "BAD_EVENT_QUEUE_ID", queue_id: "<MB>" },
      },
      { who: "member", method: "POST", path: "/typing", params: { op: "start", type: "stream", stream_id: stream.stream_id, topic: MB }, status: 200, body: success },
      { who: "member", method: "POST", path: `/messages/${id}/reactions`, params: { emoji_name: MB }, status: 400, body: badRequest("Emoji '<MB>' does not exist") },
      { who: "member", method: "DELETE", path: `/messages/${id}/reactions`, params: { emoji_name: MB }, status: 400, body: badRequest("Emoji '<MB>' does not exist") },
      { who: "member", method: "POST", path: "/register", params: { narrow: [["stream", MB]] }, status: 400, body: badRequest("narrow[0] is too long (limit: 1000 characters)") },
      { who: "owner", method: "POST", path: "/users", params: { email: MB, password: "abcdefgh12", full_name: "X" }, status: 400, body: badRequest("Bad name or username") },
      {
        who: null, method: "POST", path: "/fetch_api_key", params: { username: MB, password: "x" }, status: 401,
        body: { result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" },
      },
    ];
    // Act
    const answers = [];
    for (const c of cases) {
      const res = await org.api(c.who ? org.users[c.who] : null, c.method, c.path, c.params);
      answers.push({ request: `${c.method} ${c.path}`, status: res.status, body: JSON.parse(JSON.stringify(res.body).replaceAll(MB, "<MB>")) });
    }
    const topicSend = await org.api(member, "POST", "/messages", { type: "stream", to: "keys", topic: MB, content: "long topic" });
    const topicEdit = await org.api(member, "PATCH", `/messages/${id}`, { topic: MB });
    // Assess
    expect(answers).toEqual(cases.map((c) => ({ request: `${c.method} ${c.path}`, status: c.status, body: c.body })));
    expect(topicSend.status).toBe(200);
    expect(topicEdit.status).toBe(200);
    for (const messageId of [topicSend.body.id as number, id]) {
      const read = await org.api(member, "GET", `/messages/${messageId}`);
      expect(read.body.message.subject).toBe(TRUNCATED);
    }
  });
});
