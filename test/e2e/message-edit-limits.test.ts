import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { messageById } from "../../shared/data/messages.js";
import { systemClock } from "../../shared/deps.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { withRealmSettings } from "../support/realm-settings.js";
import { createStream } from "./streams-helpers.js";

// The organization's edit, move and delete limits (spec "Edit a message",
// Zulip's realm settings), with the clock moved forward instead of waiting.

const org = useTestOrg();
let otherStreamId = 0;

async function send(user: TestUser, topic: string, content: string, stream = "limits"): Promise<number> {
  const res = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic, content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id as number;
}

/** Runs `fn` as if `seconds` had passed since now. */
async function later<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
  const offset = seconds * 1000;
  org.stack.deps.clock = { now: () => Date.now() + offset };
  try {
    return await fn();
  } finally {
    org.stack.deps.clock = systemClock;
  }
}

/**
 * Runs `fn` with the clock fixed `seconds` after message `id` was sent:
 * exact ages, where `later` adds however long the machine took since the send
 * (seconds on a busy machine, more than a 5 s margin allows).
 */
async function atAge<T>(id: number, seconds: number, fn: () => Promise<T>): Promise<T> {
  const sent = (await messageById(org.stack.deps, id))!.timestamp;
  org.stack.deps.clock = { now: () => (sent + seconds) * 1000 };
  try {
    return await fn();
  } finally {
    org.stack.deps.clock = systemClock;
  }
}

function refused(res: { status: number; body: unknown }, msg: string) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
}

beforeAll(async () => {
  const { member, member2, moderator } = org.users;
  await createStream(org, member, "limits", { principals: [member.id, member2.id, moderator.id] });
  otherStreamId = (await createStream(org, member, "limits-other", { principals: [member.id, member2.id, moderator.id] })).stream_id;
});

afterEach(() => {
  org.stack.deps.clock = systemClock;
});

describe("content edits", () => {
  it("the sender may edit within message_content_edit_limit_seconds (+20 s grace), not after", async () => {
    const { member } = org.users;
    const id = await send(member, "content-limit", "v1");
    // Default limit 600 s: 615 s is inside the grace, 700 s is not.
    const inGrace = await atAge(id, 615, () => org.api(member, "PATCH", `/messages/${id}`, { content: "v2" }));
    expect(inGrace.body).toMatchObject({ result: "success" });
    const late = await atAge(id, 700, () => org.api(member, "PATCH", `/messages/${id}`, { content: "v3" }));
    refused(late, "The time limit for editing this message has passed");
    expect((await messageById(org.stack.deps, id))!.content).toBe("v2");
  });

  it("no limit when the organization sets none; none at all when it turns editing off", async () => {
    const { member } = org.users;
    const id = await send(member, "content-nolimit", "v1");
    await withRealmSettings(org, { message_content_edit_limit_seconds: null }, async () => {
      const res = await later(30 * 86_400, () => org.api(member, "PATCH", `/messages/${id}`, { content: "v2" }));
      expect(res.body).toMatchObject({ result: "success" });
    });
    await withRealmSettings(org, { allow_message_editing: false }, async () => {
      refused(await org.api(member, "PATCH", `/messages/${id}`, { content: "v3" }), "Your organization has turned off message editing");
    });
    expect((await messageById(org.stack.deps, id))!.content).toBe("v2");
  });
});

describe("topic edits", () => {
  it("members within move_messages_within_stream_limit_seconds only; moderators any time", async () => {
    const { member2, moderator } = org.users;
    const id = await send(org.users.member, "topic-limit", "old news");
    const week = 604_800;
    const late = await later(week + 60, () => org.api(member2, "PATCH", `/messages/${id}`, { topic: "renamed" }));
    refused(late, "The time limit for editing this message's topic has passed.");
    expect((await messageById(org.stack.deps, id))!.topic).toBe("topic-limit");
    const mod = await later(week + 60, () => org.api(moderator, "PATCH", `/messages/${id}`, { topic: "renamed" }));
    expect(mod.body).toMatchObject({ result: "success" });
    expect((await messageById(org.stack.deps, id))!.topic).toBe("renamed");
  });

  it("a new topic with an unprintable character is refused at its position, as on send", async () => {
    const id = await send(org.users.member, "printable", "x");
    refused(await org.api(org.users.member, "PATCH", `/messages/${id}`, { topic: "editing\nfun" }), "Invalid character in topic, at position 8!");
    expect((await messageById(org.stack.deps, id))!.topic).toBe("printable");
  });

  it("edit_topic_policy decides who may rename at all", async () => {
    const { member2, admin } = org.users;
    const id = await send(org.users.member, "topic-policy", "x");
    await withRealmSettings(org, { edit_topic_policy: 2 }, async () => {
      refused(await org.api(member2, "PATCH", `/messages/${id}`, { topic: "by member" }), "You don't have permission to edit this message");
      expect((await org.api(admin, "PATCH", `/messages/${id}`, { topic: "by admin" })).body).toMatchObject({ result: "success" });
    });
    expect((await messageById(org.stack.deps, id))!.topic).toBe("by admin");
  });
});

describe("change_all past the move limit: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", () => {
  it("tells a member which recent part of the topic they may move, and moves nothing", async () => {
    const { member, member2 } = org.users;
    const old = [await send(member, "aging", "a"), await send(member, "aging", "b")];
    // Eight days on (the default limit is a week), three more messages.
    const recent: number[] = [];
    const day = 86_400;
    await later(8 * day, async () => {
      for (const c of ["c", "d", "e"]) recent.push(await send(member, "aging", c));
      const res = await org.api(member2, "PATCH", `/messages/${recent[1]}`, { topic: "aged", propagate_mode: "change_all" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: "error",
        code: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
        msg: "You only have permission to move the 3/5 most recent messages in this topic.",
        first_message_id_allowed_to_move: recent[0],
        total_messages_in_topic: 5,
        total_messages_allowed_to_move: 3,
      });
      for (const id of [...old, ...recent]) expect((await messageById(org.stack.deps, id))!.topic).toBe("aging");

      // What the error suggests works: change_later from the first allowed message.
      const partial = await org.api(member2, "PATCH", `/messages/${recent[0]}`, { topic: "aged", propagate_mode: "change_later" });
      expect(partial.body).toMatchObject({ result: "success" });
    });
    for (const id of old) expect((await messageById(org.stack.deps, id))!.topic).toBe("aging");
    for (const id of recent) expect((await messageById(org.stack.deps, id))!.topic).toBe("aged");
  });

  it("does not apply to moderators, to resolving a topic, or without a limit", async () => {
    const { member, member2, moderator } = org.users;
    const day = 86_400;
    const oldOne = await send(member, "exempt", "old");
    await later(8 * day, async () => {
      const fresh = await send(member, "exempt", "new");
      const resolve = await org.api(member2, "PATCH", `/messages/${fresh}`, { topic: "✔ exempt", propagate_mode: "change_all" });
      expect(resolve.body).toMatchObject({ result: "success" });
      const byModerator = await org.api(moderator, "PATCH", `/messages/${fresh}`, { topic: "exempt moved", propagate_mode: "change_all" });
      expect(byModerator.body).toMatchObject({ result: "success" });
      await withRealmSettings(org, { move_messages_within_stream_limit_seconds: null }, async () => {
        const unlimited = await org.api(member2, "PATCH", `/messages/${fresh}`, { topic: "exempt again", propagate_mode: "change_all" });
        expect(unlimited.body).toMatchObject({ result: "success" });
      });
    });
    expect((await messageById(org.stack.deps, oldOne))!.topic).toBe("exempt again");
  });

  it("uses move_messages_between_streams_limit_seconds for stream moves", async () => {
    const { member } = org.users;
    const day = 86_400;
    const oldOne = await send(member, "cross", "old");
    await withRealmSettings(org, { move_messages_between_streams_policy: 1, move_messages_between_streams_limit_seconds: day }, async () => {
      await later(2 * day, async () => {
        const fresh = await send(member, "cross", "new");
        const res = await org.api(member, "PATCH", `/messages/${fresh}`, { stream_id: otherStreamId, propagate_mode: "change_all" });
        expect(res.body).toMatchObject({
          result: "error",
          code: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
          first_message_id_allowed_to_move: fresh,
          total_messages_in_topic: 2,
          total_messages_allowed_to_move: 1,
        });
        const old = await org.api(member, "PATCH", `/messages/${oldOne}`, { stream_id: otherStreamId, propagate_mode: "change_one" });
        refused(old, "The time limit for editing this message's channel has passed");
      });
    });
    expect((await messageById(org.stack.deps, oldOne))!.stream_id).not.toBe(otherStreamId);
  });
});

describe("deleting one's own messages", () => {
  it("within message_content_delete_limit_seconds where delete_own_message_policy allows it", async () => {
    const { member } = org.users;
    const early = await send(member, "delete-limit", "early");
    const late = await send(member, "delete-limit", "late");
    await withRealmSettings(org, { delete_own_message_policy: 5 }, async () => {
      const ok = await later(500, () => org.api(member, "DELETE", `/messages/${early}`, {}));
      expect(ok.body).toEqual({ result: "success", msg: "" });
      refused(await later(700, () => org.api(member, "DELETE", `/messages/${late}`, {})), "The time limit for deleting this message has passed");
    });
    expect(await messageById(org.stack.deps, early)).toBeUndefined();
    expect(await messageById(org.stack.deps, late)).toBeDefined();
  });
});
