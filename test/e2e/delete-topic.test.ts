import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { keys } from "../../shared/data/keys.js";
import { messageById } from "../../shared/data/messages.js";
import { getUserMessages } from "../../shared/data/user-messages.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId, markEvents } from "./streams-helpers.js";
import { uploadFile } from "./uploads-helpers.js";

// Batches of two and no time for a second batch: each request deletes at most two messages.
const org = useTestOrg({ env: { DELETE_TOPIC_BATCH_SIZE: "2", DELETE_TOPIC_TIME_BUDGET_MS: "0" } });

let streamId = 0;
let privateId = 0;

async function send(user: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

async function postingsOf(term: string): Promise<number[]> {
  const deps = org.stack.deps;
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.searchTerm(org.realm.id, term).pk },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => Number(i.message_id));
}

const deleteTopic = (user: TestUser, id: number, topic: unknown) =>
  org.api(user, "POST", `/streams/${id}/delete_topic`, topic === undefined ? {} : { topic_name: topic });

beforeAll(async () => {
  const { owner, admin, member, member2 } = org.users;
  streamId = await createStreamId(org, owner, "topic-deletion", { principals: [owner.id, admin.id, member.id, member2.id] });
  privateId = await createStreamId(org, member, "topic-deletion-private", { inviteOnly: true, principals: [member.id, member2.id] });
});

describe("POST /streams/{stream_id}/delete_topic", () => {
  it("deletes the topic in batches, complete: false until done, with everything each message had", async () => {
    const { admin, member, member2 } = org.users;
    const url = await uploadFile(org, member, "doomed.txt", "bytes");
    const ids = [
      await send(member, "topic-deletion", "Doomed", `zebrafish [file](${url})`),
      await send(member2, "topic-deletion", "doomed", "zebrafish two"),
      await send(member, "topic-deletion", "Doomed", "zebrafish three"),
    ];
    const kept = await send(member, "topic-deletion", "kept", "zebrafish kept");
    expect((await org.api(member2, "POST", `/messages/${ids[0]}/reactions`, { emoji_name: "smile" })).body.result).toBe("success");
    await org.stack.drainDeferredWork();
    expect((await postingsOf("zebrafish")).sort()).toEqual([...ids, kept].sort());
    const marks = await markEvents(org, [member2]);

    // Newest first, two per request: [ids[2], ids[1]], then [ids[0]].
    const first = await deleteTopic(admin, streamId, "DOOMED");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ result: "success", msg: "", complete: false });
    expect(await messageById(org.stack.deps, ids[2]!)).toBeUndefined();
    expect(await messageById(org.stack.deps, ids[0]!)).toBeDefined();
    let answer = first;
    for (let i = 0; i < 5 && answer.body.complete === false; i++) answer = await deleteTopic(admin, streamId, "DOOMED");
    expect(answer.body).toEqual({ result: "success", msg: "", complete: true });
    await org.stack.drainDeferredWork();

    for (const id of ids) expect(await messageById(org.stack.deps, id)).toBeUndefined();
    expect(await messageById(org.stack.deps, kept)).toBeDefined();
    expect((await getUserMessages(org.stack.deps, member2.id, ids)).size).toBe(0);
    expect(await postingsOf("zebrafish")).toEqual([kept]);
    const attachments = (await org.api(member, "GET", "/attachments")).body.attachments as { path_id: string }[];
    expect(attachments.map((a) => a.path_id)).not.toContain(url.replace("/user_uploads/", ""));

    const deletes = (await marks.since(member2)).filter((e) => e.type === "delete_message");
    expect(deletes).toEqual([
      { type: "delete_message", message_ids: [ids[2], ids[1]], message_type: "stream", stream_id: streamId, topic: "Doomed" },
      { type: "delete_message", message_ids: [ids[0]], message_type: "stream", stream_id: streamId, topic: "Doomed" },
    ]);
    const topics = (await org.api(member, "GET", `/users/me/${streamId}/topics`)).body.topics as { name: string }[];
    expect(topics.map((t) => t.name)).toEqual(["kept"]);
  });

  it("answers complete: true for a topic without messages", async () => {
    const res = await deleteTopic(org.users.admin, streamId, "nothing here");
    expect(res.body).toEqual({ result: "success", msg: "", complete: true });
  });

  it("refuses non-administrators, and deletes nothing", async () => {
    const { member, moderator } = org.users;
    const id = await send(member, "topic-deletion", "stays", "still here");
    for (const who of [member, moderator]) {
      const res = await deleteTopic(who, streamId, "stays");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "Must be an organization administrator", code: "BAD_REQUEST" });
    }
    expect(await messageById(org.stack.deps, id)).toBeDefined();
    // The role is checked before the parameters, as Zulip's decorator does.
    expect((await deleteTopic(member, streamId, undefined)).body.msg).toBe("Must be an organization administrator");
  });

  it("refuses a private stream the administrator is not subscribed to, a missing stream and a missing topic_name", async () => {
    const { admin, member } = org.users;
    const id = await send(member, "topic-deletion-private", "secret", "hidden");
    for (const stream of [privateId, 999_999]) {
      const res = await deleteTopic(admin, stream, "secret");
      expect(res.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
    }
    expect(await messageById(org.stack.deps, id)).toBeDefined();
    const missing = await deleteTopic(admin, streamId, undefined);
    expect(missing.body).toMatchObject({ result: "error", msg: "Missing 'topic_name' argument", code: "REQUEST_VARIABLE_MISSING" });
  });
});
