import { describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

async function createStream(creator: TestUser, name: string, principals: number[]): Promise<number> {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals });
  expect(res.body).toMatchObject({ result: "success" });
  return (await org.api(creator, "GET", "/get_stream_id", { stream: name })).body.stream_id as number;
}

/** A viewer, a sender, a muted stream and an unmuted one, and six messages the viewer has not read. */
async function mutingScene(prefix: string) {
  const viewer = await org.createUser(`${prefix}-viewer`);
  const sender = await org.createUser(`${prefix}-sender`);
  const muted = await createStream(sender, `${prefix}-muted`, [sender.id, viewer.id]);
  const open = await createStream(sender, `${prefix}-open`, [sender.id, viewer.id]);
  const send = async (to: number, topic: string) =>
    (await org.api(sender, "POST", "/messages", { type: "stream", to, topic, content: "x" })).body.id as number;
  const ids = {
    mutedPlain: await send(muted, "plain"),
    mutedUnmuted: await send(muted, "unmuted-t"),
    mutedFollowed: await send(muted, "followed-t"),
    openMutedTopic: await send(open, "muted-t"),
    openPlain: await send(open, "normal"),
    direct: (await org.api(sender, "POST", "/messages", { type: "direct", to: [viewer.id], content: "hi" })).body.id as number,
  };
  const setPolicy = async (stream_id: number, topic: string, visibility_policy: number) =>
    expect((await org.api(viewer, "POST", "/user_topics", { stream_id, topic, visibility_policy })).status).toBe(200);
  const muteStream = async () =>
    expect(
      (
        await org.api(viewer, "POST", "/users/me/subscriptions/properties", {
          subscription_data: [{ stream_id: muted, property: "is_muted", value: true }],
        })
      ).status,
    ).toBe(200);
  const setUpMuting = async () => {
    await setPolicy(muted, "Unmuted-T", 2);
    await setPolicy(muted, "followed-t", 3);
    await setPolicy(open, "muted-t", 1);
    await muteStream();
  };
  const all = Object.values(ids);
  const fetch = async (narrow: unknown[]) => {
    const res = await org.api(viewer, "GET", "/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow });
    expect(res.status).toBe(200);
    return (res.body.messages as { id: number }[]).map((m) => m.id).filter((id) => all.includes(id));
  };
  return { viewer, muted, open, ids, setPolicy, muteStream, setUpMuting, fetch };
}

describe("narrow in:home / in:all", () => {
  it("in:home leaves out muted streams (but their unmuted and followed topics) and muted topics", async () => {
    // Prepare
    const s = await mutingScene("hv-home");
    await s.setUpMuting();
    // Act
    const home = await s.fetch([{ operator: "in", operand: "home" }]);
    // Assess
    expect(home).toEqual([s.ids.mutedUnmuted, s.ids.mutedFollowed, s.ids.openPlain, s.ids.direct]);
  });

  it("-in:home returns exactly what the home view hides; in:all and no narrow return everything", async () => {
    // Prepare
    const s = await mutingScene("hv-neg");
    await s.setUpMuting();
    // Act
    const notHome = await s.fetch([{ operator: "in", operand: "home", negated: true }]);
    const all = await s.fetch([{ operator: "in", operand: "all" }]);
    const none = await s.fetch([]);
    // Assess
    expect(notHome).toEqual([s.ids.mutedPlain, s.ids.openMutedTopic]);
    expect(all).toEqual(Object.values(s.ids));
    expect(none).toEqual(Object.values(s.ids));
  });

  it("in:home combines with a stream narrow, and follows the policies as they change", async () => {
    // Prepare
    const s = await mutingScene("hv-stream");
    await s.muteStream();
    const narrow = [
      { operator: "stream", operand: s.muted },
      { operator: "in", operand: "home" },
    ];
    // Act / Assess
    expect(await s.fetch(narrow)).toEqual([]);
    await s.setPolicy(s.muted, "plain", 3);
    expect(await s.fetch(narrow)).toEqual([s.ids.mutedPlain]);
    await s.setPolicy(s.open, "normal", 1);
    expect(await s.fetch([{ operator: "stream", operand: s.open }, { operator: "in", operand: "home" }])).toEqual([s.ids.openMutedTopic]);
  });
});

describe("register unread_msgs.count and muting", () => {
  it("leaves out muted topics, then muted streams but their unmuted and followed topics; streams still lists them", async () => {
    // Prepare
    const s = await mutingScene("hv-unread");
    const unread = async () => {
      const res = await org.api(s.viewer, "POST", "/register", { fetch_event_types: ["message", "update_message_flags"] });
      expect(res.status).toBe(200);
      const u = res.body.unread_msgs as { count: number; streams: { unread_message_ids: number[] }[] };
      return { count: u.count, streamIds: u.streams.flatMap((t) => t.unread_message_ids).sort((a, b) => a - b) };
    };
    const before = await unread();
    expect(before.streamIds).toEqual(
      [s.ids.mutedPlain, s.ids.mutedUnmuted, s.ids.mutedFollowed, s.ids.openMutedTopic, s.ids.openPlain].sort((a, b) => a - b),
    );
    // Act: mute a topic
    await s.setPolicy(s.open, "muted-t", 1);
    const afterTopic = await unread();
    // Act: unmute and follow topics of a stream, then mute the stream
    await s.setPolicy(s.muted, "unmuted-t", 2);
    await s.setPolicy(s.muted, "followed-t", 3);
    await s.muteStream();
    const afterStream = await unread();
    // Assess
    expect(afterTopic.count).toBe(before.count - 1);
    expect(afterStream.count).toBe(before.count - 2);
    expect(afterStream.streamIds).toEqual(before.streamIds);
  });
});
