import { beforeAll, describe, expect, it } from "vitest";
import { checkSendMessage } from "../../shared/actions/messages/send-message.js";
import { getUserMessages, putUserMessages } from "../../shared/data/user-messages.js";
import type { Deps } from "../../shared/deps.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

const org = useTestOrg();

const LARGER = 10000000000000000;
/** IDs of the 10 messages of stream "get-history", oldest first. */
const history: number[] = [];
let dmId = 0;

async function createStream(creator: TestUser, name: string, principals: number[], extra: Record<string, unknown> = {}) {
  const res = await org.api(creator, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals, ...extra });
  expect(res.body).toMatchObject({ result: "success" });
}

async function get(user: TestUser, params: Record<string, unknown>) {
  return org.api(user, "GET", "/messages", params);
}

const idsOf = (res: { body: Record<string, any> }) => (res.body.messages as { id: number }[]).map((x) => x.id);
const historyNarrow = [{ operator: "stream", operand: "get-history" }];

beforeAll(async () => {
  const { member, member2 } = org.users;
  await createStream(member, "get-history", [member.id, member2.id]);
  for (let i = 0; i < 10; i++) {
    const res = await org.api(member, "POST", "/messages", { type: "stream", to: "get-history", topic: `t${i % 2}`, content: `message ${i}` });
    history.push(res.body.id);
  }
  dmId = (await org.api(member, "POST", "/messages", { type: "private", to: [member2.id], content: "private words" })).body.id;
});

describe("GET /messages anchors", () => {
  it("newest: the last num_before messages, found_newest", async () => {
    const res = await get(org.users.member2, { anchor: "newest", num_before: 3, num_after: 0, narrow: historyNarrow });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      anchor: LARGER,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
    expect(idsOf(res)).toEqual(history.slice(7));
  });

  it("oldest: the first num_after messages, found_oldest", async () => {
    const res = await get(org.users.member2, { anchor: "oldest", num_before: 0, num_after: 4, narrow: historyNarrow });
    expect(res.body).toMatchObject({ anchor: 0, found_anchor: false, found_oldest: true, found_newest: false });
    expect(idsOf(res)).toEqual(history.slice(0, 4));
  });

  it("a message ID: both sides and the anchor itself", async () => {
    const anchor = history[5]!;
    const res = await get(org.users.member2, { anchor, num_before: 2, num_after: 2, narrow: historyNarrow });
    expect(res.body).toMatchObject({ anchor, found_anchor: true, found_oldest: false, found_newest: false });
    expect(idsOf(res)).toEqual(history.slice(3, 8));
    // Asking past the ends finds them.
    const wide = await get(org.users.member2, { anchor: String(anchor), num_before: 50, num_after: 50, narrow: historyNarrow });
    expect(wide.body).toMatchObject({ found_oldest: true, found_newest: true, found_anchor: true });
    expect(idsOf(wide)).toEqual(history);
  });

  it("an anchor that does not match the narrow is not found but still anchors", async () => {
    const res = await get(org.users.member2, { anchor: dmId - 1, num_before: 0, num_after: 1, narrow: [["is", "dm"]] });
    expect(res.body).toMatchObject({ found_anchor: false });
    expect(idsOf(res)).toEqual([dmId]);
  });

  it("include_anchor=false leaves the anchor out at an end of the range", async () => {
    const anchor = history[5]!;
    const res = await get(org.users.member2, { anchor, num_before: 2, num_after: 0, include_anchor: false, narrow: historyNarrow });
    expect(res.body).toMatchObject({ found_anchor: false });
    expect(idsOf(res)).toEqual(history.slice(3, 5));
    const mid = await get(org.users.member2, { anchor, num_before: 2, num_after: 2, include_anchor: false });
    expect(mid.body).toEqual({ result: "error", msg: "The anchor can only be excluded at an end of the range", code: "BAD_REQUEST" });
  });

  it("huge and negative numbers are clamped; legacy use_first_unread_anchor works", async () => {
    const huge = await get(org.users.member2, { anchor: "99999999999999999999", num_before: 1, num_after: 0, narrow: historyNarrow });
    expect(huge.body).toMatchObject({ anchor: LARGER, found_newest: true });
    expect(idsOf(huge)).toEqual([history[9]]);
    const negative = await get(org.users.member2, { anchor: -5, num_before: 0, num_after: 1, narrow: historyNarrow });
    expect(negative.body).toMatchObject({ anchor: 0, found_oldest: true });
    const legacy = await get(org.users.member2, { use_first_unread_anchor: true, num_before: 0, num_after: 1, narrow: historyNarrow });
    expect(legacy.body).toMatchObject({ result: "success", anchor: history[0], found_anchor: true });
  });

  it("first_unread: the oldest unread message of the narrow, else newest", async () => {
    const { member2 } = org.users;
    // Mark the first three read (the flags endpoint belongs elsewhere; here directly).
    const rows = await getUserMessages(org.stack.deps, member2.id, history.slice(0, 3));
    await putUserMessages(org.stack.deps, [...rows.values()].map((r) => ({ ...r, flags: [...r.flags, "read"] })));
    const res = await get(member2, { anchor: "first_unread", num_before: 1, num_after: 1, narrow: historyNarrow });
    expect(res.body).toMatchObject({ anchor: history[3], found_anchor: true });
    expect(idsOf(res)).toEqual(history.slice(2, 5));
    // The sender's own API-sent messages start unread for them too; a narrow with nothing unread anchors at newest.
    const none = await get(member2, { anchor: "first_unread", num_before: 1, num_after: 1, narrow: [["is", "starred"]] });
    expect(none.body).toMatchObject({ anchor: LARGER, found_anchor: false, messages: [] });
  });

  it("refuses bad anchors and oversized requests with Zulip's errors", async () => {
    const { member2 } = org.users;
    expect((await get(member2, { num_before: 1, num_after: 0 })).body).toMatchObject({ result: "error", msg: "Missing 'anchor' argument." });
    expect((await get(member2, { anchor: "sideways", num_before: 1, num_after: 0 })).body).toMatchObject({ msg: "Invalid anchor" });
    expect((await get(member2, { anchor: "newest", num_before: 4000, num_after: 1001 })).body).toEqual({
      result: "error",
      msg: "Too many messages requested (maximum 5000).",
      code: "BAD_REQUEST",
    });
    expect((await get(member2, { anchor: "newest", num_after: 0 })).body).toMatchObject({
      msg: "Missing 'num_before' argument",
      code: "REQUEST_VARIABLE_MISSING",
    });
  });
});

describe("GET /messages message fields", () => {
  it("apply_markdown=false returns the Markdown source; client_gravatar decides avatar_url", async () => {
    const { member2 } = org.users;
    const raw = await get(member2, { anchor: history[0], num_before: 0, num_after: 0, apply_markdown: false, client_gravatar: false });
    expect(raw.body.messages[0]).toMatchObject({ content: "message 0", content_type: "text/x-markdown" });
    expect(raw.body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const html = await get(member2, { anchor: history[0], num_before: 0, num_after: 0 });
    expect(html.body.messages[0]).toMatchObject({ content: "<p>message 0</p>", content_type: "text/html", avatar_url: null });
  });

  it("flags: the viewer's own; shared public history is read and historical, and not in the home view", async () => {
    const { admin, member2 } = org.users;
    const own = await get(member2, { anchor: history[4], num_before: 0, num_after: 0 });
    expect(own.body.messages[0].flags).toEqual([]);
    const shared = await get(admin, { anchor: history[4], num_before: 0, num_after: 0, narrow: historyNarrow });
    expect(shared.body.messages[0].flags).toEqual(["read", "historical"]);
    const home = await get(admin, { anchor: "newest", num_before: 100, num_after: 0 });
    expect(idsOf(home)).not.toContain(history[4]);
  });
});

describe("GET /messages/{message_id}", () => {
  it("returns a visible message with raw_content", async () => {
    const res = await org.api(org.users.member2, "GET", `/messages/${dmId}`, { apply_markdown: false });
    expect(res.body).toMatchObject({
      result: "success",
      raw_content: "private words",
      message: { id: dmId, type: "private", content: "private words", content_type: "text/x-markdown", flags: [] },
    });
  });

  it("refuses other people's private messages, and missing IDs, with Invalid message(s)", async () => {
    const invalid = { result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" };
    expect((await org.api(org.users.admin, "GET", `/messages/${dmId}`)).body).toEqual(invalid);
    expect((await org.api(org.users.admin, "GET", "/messages/99999999")).body).toEqual(invalid);
    // Shared public history is visible.
    const shared = await org.api(org.users.admin, "GET", `/messages/${history[0]}`);
    expect(shared.body.message.flags).toEqual(["read", "historical"]);
  });

  it("hides private-stream messages from non-subscribers", async () => {
    const { member, member2 } = org.users;
    await createStream(member, "get-private", [member.id], { invite_only: true });
    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: "get-private", topic: "t", content: "hush" });
    const res = await org.api(member2, "GET", `/messages/${sent.body.id}`);
    expect(res.body).toMatchObject({ result: "error", msg: "Invalid message(s)" });
    const narrow = await get(member2, { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "get-private"]] });
    expect(idsOf(narrow)).toEqual([]);
  });
});

/**
 * Counts DynamoDB round trips of what runs while installed: a round starts
 * when a request is sent while none is in flight (requests sent together
 * with Promise.all are one round).
 */
function countRoundTrips(deps: Deps) {
  const original = deps.db.send.bind(deps.db);
  let inFlight = 0;
  const counts = { rounds: 0, calls: 0 };
  deps.db.send = (async (...args: Parameters<typeof original>) => {
    if (inFlight === 0) counts.rounds++;
    inFlight++;
    counts.calls++;
    try {
      return await original(...args);
    } finally {
      inFlight--;
    }
  }) as typeof deps.db.send;
  return { counts, restore: () => void (deps.db.send = original) };
}

describe("GET /messages cost", () => {
  it("a page of 100 costs at most 5 round trips after authentication, the same for 50 and 500 messages of history", async () => {
    const { member, member2 } = org.users;
    const deps = org.stack.deps;
    await createStream(member, "get-cost", [member.id, member2.id]);
    const sendMany = async (n: number) => {
      for (let i = 0; i < n; i += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, n - i) }, (_, j) =>
            checkSendMessage(deps, org.realm, org.records.member, {
              type: "stream",
              to: "get-cost",
              topic: `topic ${(i + j) % 3}`,
              content: `history ${i + j}`,
              clientName: "test",
            }),
          ),
        );
      }
      await org.stack.drainDeferredWork();
    };
    const measure = async (narrow: unknown[]) => {
      const meter = countRoundTrips(deps);
      try {
        const res = await get(member2, { anchor: "newest", num_before: 100, num_after: 0, narrow });
        expect(res.body.result).toBe("success");
        return { ...meter.counts, returned: res.body.messages.length as number };
      } finally {
        meter.restore();
      }
    };
    const narrows: unknown[][] = [
      [["stream", "get-cost"]],
      [["stream", "get-cost"], ["topic", "topic 1"]],
      [],
      [{ operator: "sender", operand: member.id }],
    ];
    const AUTH = 2;

    // One request at a time: the meter counts whatever runs while it is installed.
    await sendMany(50);
    const small = [];
    for (const n of narrows) small.push(await measure(n));
    await sendMany(450);
    const large = [];
    for (const n of narrows) large.push(await measure(n));

    for (let i = 0; i < narrows.length; i++) {
      // Query, BatchGet, current users (with stream names), plus the narrow's lookups.
      expect(small[i]!.rounds - AUTH).toBeLessThanOrEqual(5);
      expect(large[i]!.rounds).toBe(small[i]!.rounds);
    }
    // Exact drivers (stream, topic, home) also send the very same requests;
    // the sender index over-fetches to absorb invisible messages, so its
    // BatchGet count settles once history exceeds its first page.
    for (let i = 0; i < 3; i++) expect(large[i]!.calls).toBe(small[i]!.calls);
    expect(large[0]!.returned).toBe(100);
    expect(large[3]!.returned).toBe(100);
  }, 180_000); // seeds 500 messages through the send path (and 500 index jobs): 8-12 s alone, 40-47 s with a second suite running, so 90 s left too little headroom on a busy machine
});
