import { request } from "node:http";
import { BatchGetCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { getRealm } from "../../shared/data/realms.js";
import { getStreamIdByName } from "../../shared/data/streams.js";
import { messageById } from "../../shared/data/messages.js";
import { useTestOrg } from "../support/local-stack.js";
import type { TestUser } from "../support/api-client.js";
import { eventsOf, markEvents } from "./streams-helpers.js";

// Lists and strings a request carries are bounded before any work: each case
// below was measured as unbounded DynamoDB work, a 500, or both.
const org = useTestOrg();

function badRequest(res: { status: number; body: Record<string, unknown> }, msg: string, code = "BAD_REQUEST") {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ result: "error", msg, code });
}

async function createStream(user: TestUser, name: string, principals: number[] = [user.id]): Promise<number> {
  const res = await org.api(user, "POST", "/users/me/subscriptions", { subscriptions: [{ name }], principals });
  expect(res.status).toBe(200);
  return (await getStreamIdByName(org.stack.deps, org.realm.id, name))!;
}

/** Counts the DynamoDB commands the server sends while `fn` runs, by command name. */
async function countCommands<T>(fn: () => Promise<T>): Promise<{ result: T; counts: Map<string, number> }> {
  const db = org.stack.deps.db;
  const original = db.send.bind(db);
  const counts = new Map<string, number>();
  db.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
    counts.set(command.constructor.name, (counts.get(command.constructor.name) ?? 0) + 1);
    return (original as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof db.send;
  try {
    return { result: await fn(), counts };
  } finally {
    db.send = original;
  }
}

describe("narrows", () => {
  it("refuse more than 20 terms in GET /messages, flags/narrow and register", async () => {
    const { member, member2 } = org.users;
    const terms = Array.from({ length: 200 }, () => ({ operator: "sender", operand: member2.id }));
    const get = await org.api(member, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: terms });
    badRequest(get, "narrow is too long (limit: 20 items)");
    const many = Array.from({ length: 5000 }, () => ({ operator: "sender", operand: member2.id }));
    const flags = await org.api(member, "POST", "/messages/flags/narrow", {
      anchor: "newest", num_before: 10, num_after: 0, narrow: many, op: "add", flag: "read",
    });
    badRequest(flags, "narrow is too long (limit: 20 items)");
    const before = (await eventsOf(org, member.id)).length;
    const register = await org.api(member, "POST", "/register", {
      event_types: ["message"], narrow: Array.from({ length: 5000 }, () => ["sender", member2.email]),
    });
    badRequest(register, "narrow is too long (limit: 20 items)");
    const longOperand = await org.api(member, "POST", "/register", {
      event_types: ["message"], narrow: [["topic", "t".repeat(300_000)]],
    });
    badRequest(longOperand, "narrow[0] is too long (limit: 1000 characters)");
    expect((await eventsOf(org, member.id)).length).toBe(before);
  });

  it("refuse a dm operand of more than 100 users instead of a key past DynamoDB's limit", async () => {
    const { member } = org.users;
    const ids = Array.from({ length: 10_000 }, (_, i) => 1_000_000 + i);
    const flags = await org.api(member, "POST", "/messages/flags/narrow", {
      anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "dm", operand: ids }], op: "add", flag: "read",
    });
    badRequest(flags, "operand is too long (limit: 100 items)");
    const emails = Array.from({ length: 101 }, (_, i) => `u${i}@example.com`).join(",");
    const get = await org.api(member, "GET", "/messages", {
      anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "dm", operand: emails }],
    });
    badRequest(get, "operand is too long (limit: 100 items)");
  });
});

describe("POST /users/me/subscriptions", () => {
  it("refuses more than 100 streams in one request and creates none of them", async () => {
    const { admin } = org.users;
    const subscriptions = Array.from({ length: 1000 }, (_, i) => ({ name: `bulk-${i}` }));
    const res = await org.api(admin, "POST", "/users/me/subscriptions", { subscriptions });
    badRequest(res, "subscriptions is too long (limit: 100 items)");
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "bulk-0")).toBeUndefined();
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "bulk-999")).toBeUndefined();
  });

  it("refuses more than 1,000 principals and subscribes nobody", async () => {
    const { admin, member } = org.users;
    const principals = [member.id, ...Array.from({ length: 1000 }, (_, i) => 2_000_000 + i)];
    const res = await org.api(admin, "POST", "/users/me/subscriptions", { subscriptions: [{ name: "many-principals" }], principals });
    badRequest(res, "principals is too long (limit: 1000 items)");
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "many-principals")).toBeUndefined();
  });
});

describe("POST /messages/flags", () => {
  it("refuses more than 5,000 message IDs", async () => {
    const { member } = org.users;
    const messages = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const res = await org.api(member, "POST", "/messages/flags", { messages, op: "add", flag: "starred" });
    badRequest(res, "messages is too long (limit: 5000 items)");
  });
});

describe("POST /typing", () => {
  it("cuts a long topic as a message's topic is cut, not copying it into every event", async () => {
    const { member, member2 } = org.users;
    const streamId = await createStream(member, "typing-bounds", [member.id, member2.id]);
    const mark = await markEvents(org, [member2]);
    const res = await org.api(member, "POST", "/typing", { op: "start", type: "stream", stream_id: streamId, topic: "x".repeat(300_000) });
    expect(res.body).toEqual({ result: "success", msg: "" });
    const events = (await mark.since(member2)).filter((e) => e.type === "typing");
    expect(events).toHaveLength(1);
    expect(events[0]!.topic).toBe(`${"x".repeat(57)}...`);
  });
});

describe("POST /typing to direct-message recipients", () => {
  it("refuses more than 1,000 recipients before reading any of them", async () => {
    const { member } = org.users;
    const to = Array.from({ length: 10_000 }, (_, i) => 3_000_000 + i);
    const { result: res, counts } = await countCommands(() => org.api(member, "POST", "/typing", { op: "start", to }));
    badRequest(res, "to is too long (limit: 1000 items)");
    // At most the request's own authentication read; a hundred BatchGets without the bound.
    expect(counts.get(BatchGetCommand.name) ?? 0).toBeLessThan(2);
  });
});

describe("message rendering", () => {
  it("resolves a thousand distinct #**stream** links in batches, not one read each", async () => {
    const { member } = org.users;
    const streamId = await createStream(member, "links-target");
    const content = Array.from({ length: 1000 }, (_, i) => `#**l${i}**`).join(" ");
    const { result: res, counts } = await countCommands(() =>
      org.api(member, "POST", "/messages", { type: "stream", to: streamId, topic: "links", content }),
    );
    expect(res.status).toBe(200);
    // The name items and the streams: ten BatchGets of 100 names; the
    // GetItems left are the request's own (realm, user, stream, ...).
    expect(counts.get(GetCommand.name) ?? 0).toBeLessThan(20);
    expect(counts.get(BatchGetCommand.name) ?? 0).toBeGreaterThanOrEqual(10);
  });

  it("renders TeX only up to a budget; later formulas show their source", async () => {
    const { member } = org.users;
    const streamId = await createStream(member, "tex-bounds");
    // Each formula expands to 32 fractions, about 32,000 characters of KaTeX HTML.
    const formula = String.raw`$$\def\f{\frac{a}{b}\frac{c}{d}}\def\g{\f\f\f\f}\def\h{\g\g\g\g}\h$$`;
    const content = Array.from({ length: 60 }, () => formula).join("\n\n");
    const res = await org.api(member, "POST", "/messages", { type: "stream", to: streamId, topic: "tex", content });
    expect(res.status).toBe(200);
    const message = await messageById(org.stack.deps, res.body.id as number);
    expect(message!.rendered_content.length).toBeLessThan(100_000 + content.length * 2);
    expect(message!.rendered_content).toContain('<span class="katex">');
    expect(message!.rendered_content).toContain('<span class="tex-error">');
  });
});

describe("PATCH /realm", () => {
  it("refuses a message_retention_days beyond a 32-bit integer, as Zulip's column holds", async () => {
    const { owner } = org.users;
    for (const value of [2147483648, 9007199254740991, 1e20]) {
      const res = await org.api(owner, "PATCH", "/realm", { message_retention_days: value });
      badRequest(res, `Bad value for 'message_retention_days': ${value}`);
      const stream = await org.api(owner, "POST", "/users/me/subscriptions", {
        subscriptions: [{ name: "retention-bounds" }], message_retention_days: value,
      });
      badRequest(stream, `Bad value for 'message_retention_days': ${value}`);
    }
    expect(await getStreamIdByName(org.stack.deps, org.realm.id, "retention-bounds")).toBeUndefined();
    const realm = await getRealm(org.stack.deps, org.realm.id);
    expect(realm!.settings.message_retention_days).toBeUndefined();
  });
});

/** A request with an arbitrary Host header (`fetch` cannot set one). */
function withHost(host: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: org.stack.port, method: "GET", path: `/api/v1${path}`, headers: { host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Host outside the root domain", () => {
  it("is refused with 400 instead of serving the default organization", async () => {
    const res = await withHost("evil.example.net", "/server_settings");
    badRequest(res, "Invalid subdomain", "NONEXISTENT_SUBDOMAIN");
    const root = await withHost(`127.0.0.1:${org.stack.port}`, "/server_settings");
    expect(root.status).toBe(200);
  });
});

describe("topics longer than any topic can be", () => {
  it("never answer 500 where a topic is accepted", async () => {
    const { member, member2 } = org.users;
    const streamId = await createStream(member, "long-topics", [member.id, member2.id]);
    const topic = "t".repeat(3000);
    const cases: [string, string, Record<string, unknown>][] = [
      ["GET", "/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["stream", String(streamId)], ["topic", topic]] }],
      ["POST", "/messages/flags/narrow", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["stream", String(streamId)], ["topic", topic]], op: "add", flag: "read" }],
      ["POST", "/user_topics", { stream_id: streamId, topic, visibility_policy: 1 }],
      ["POST", "/messages", { type: "stream", to: streamId, topic, content: "long topic" }],
      ["POST", "/drafts", { drafts: [{ type: "stream", to: [streamId], topic, content: "d", timestamp: 1 }] }],
    ];
    for (const [method, path, params] of cases) {
      const res = await org.api(member, method, path, params);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
  });
});

describe("POST /register", () => {
  it("refuses an event_types list longer than any client sends, instead of a queue item past 400 KB", async () => {
    const { member } = org.users;
    const before = (await eventsOf(org, member.id)).length;
    const eventTypes = Array.from({ length: 20_000 }, (_, i) => `type_${i}_${"x".repeat(20)}`);
    const res = await org.api(member, "POST", "/register", { event_types: eventTypes });
    badRequest(res, "event_types is too long (limit: 200 items)");
    const long = await org.api(member, "POST", "/register", { event_types: ["message", "y".repeat(5000)] });
    badRequest(long, "event_types[1] is too long (limit: 100 characters)");
    expect((await eventsOf(org, member.id)).length).toBe(before);
  });
});
