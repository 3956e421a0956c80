import { beforeAll, describe, expect, it } from "vitest";
import { realmLinkifiers } from "../../shared/data/linkifiers.js";
import { useTestOrg } from "../support/local-stack.js";
import { queueClient } from "./streams-helpers.js";

/**
 * Linkifiers (https://zulip.com/help/add-a-custom-linkifier): the
 * administration endpoints, their refusals, the `realm_linkifiers` event and
 * register state, and their effect on rendered messages and `topic_links`.
 */
const org = useTestOrg();
const STREAM = "linkifier tests";

const err = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const stored = async () => (await realmLinkifiers(org.stack.deps, org.realm.id)).linkifiers;
const add = (params: Record<string, unknown>, who = org.users.admin) => org.api(who, "POST", "/realm/filters", params);
const list = async () => (await org.api(org.users.guest, "GET", "/realm/linkifiers")).body.linkifiers as { id: number }[];

const TRAC = { pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://trac.example.com/ticket/{id}" };
let tracId: number;

beforeAll(async () => {
  const res = await org.api(org.users.member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: STREAM }] });
  expect(res.body.result).toBe("success");
});

describe("POST /realm/filters", () => {
  it.each(["moderator", "member", "guest", "bot"] as const)("refuses a %s", async (who) => {
    const res = await add(TRAC, org.users[who]);
    expect(res.body).toEqual(err("Must be an organization administrator"));
    expect(await stored()).toEqual([]);
  });

  it("adds a linkifier, sends the list to every active user's capable queue, and register lists it", async () => {
    // Prepare
    const watcher = queueClient(org, org.users.member);
    await watcher.register({ event_types: ["realm_linkifiers", "heartbeat"], client_capabilities: { linkifier_url_template: true } });
    // Act
    const res = await add({ pattern: ` ${TRAC.pattern} `, url_template: TRAC.url_template });
    // Assess
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    tracId = res.body.id as number;
    const expected = [{ pattern: TRAC.pattern, url_template: TRAC.url_template, id: tracId }];
    const event = await watcher.waitFor((e) => e.type === "realm_linkifiers");
    expect(event).toEqual({ id: event.id, type: "realm_linkifiers", realm_linkifiers: expected });
    const reg = await org.api(org.users.guest, "POST", "/register", {
      fetch_event_types: ["realm_linkifiers", "realm_filters"],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(reg.body.realm_linkifiers).toEqual(expected);
    expect(reg.body.realm_filters).toEqual([]);
    // Without the capability a client would misread templates: an empty list, as from Zulip.
    const old = await org.api(org.users.guest, "POST", "/register", { fetch_event_types: ["realm_linkifiers"] });
    expect(old.body.realm_linkifiers).toEqual([]);
    expect(await list()).toEqual(expected);
  });

  it("does not send realm_linkifiers to a queue without the linkifier_url_template capability", async () => {
    const old = queueClient(org, org.users.member);
    await old.register({ event_types: ["realm_linkifiers"] });
    const res = await add({ pattern: "temp-(?P<id>[0-9]+)", url_template: "https://temp.example.com/{id}" });
    expect(res.body.result).toBe("success");
    await org.api(org.users.admin, "DELETE", `/realm/filters/${res.body.id}`);
    expect((await old.poll({ dontBlock: true })).filter((e) => e.type === "realm_linkifiers")).toEqual([]);
  });

  it.each([
    [{ url_template: "https://x.example/{id}" }, "Missing 'pattern' argument"],
    [{ pattern: "x-(?P<id>[0-9]+)" }, "Missing 'url_template' argument"],
    [{ pattern: "", url_template: "https://x.example/" }, "This field cannot be blank."],
    [{ pattern: "(foo", url_template: "https://x.example/" }, "Bad regular expression: missing ): (foo"],
    [{ pattern: "ZUL-(?P<id>\\d????)", url_template: "https://x.example/{id}" }, "Bad regular expression: bad repetition operator: ????"],
    // Back-references and look-around need a backtracking engine, whose run time a crafted message can make explode.
    [{ pattern: "(?P<id>a+)\\1", url_template: "https://x.example/{id}" }, "Bad regular expression: invalid escape sequence: \\1"],
    [{ pattern: "(?P<id>a+)(?=b)", url_template: "https://x.example/{id}" }, "Bad regular expression: invalid perl operator: (?="],
    [{ pattern: "(?P<id>(\\w{1,100}){1,10})", url_template: "https://x.example/{id}" }, "Bad regular expression: pattern too large - compile failed"],
    [{ pattern: "ZUL-(?P<id>\\d+)", url_template: "https://x.example/{id" }, "Invalid URL template."],
    [{ pattern: "ZUL-(?P<id>\\d+)", url_template: "$fgfg" }, "Group 'id' in linkifier pattern is not present in URL template."],
    [{ pattern: "ZUL-(?P<id>\\d+)", url_template: "https://x.example/{hello}" }, "Group 'hello' in URL template is not present in linkifier pattern."],
    [{ pattern: "x".repeat(1001), url_template: "https://x.example/" }, "pattern is too long (limit: 1000 characters)"],
    [TRAC, "Realm filter with this Realm and Pattern already exists."],
  ])("refuses %j with %j and changes nothing", async (params, msg) => {
    const before = await stored();
    const res = await add(params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", msg });
    expect(await stored()).toEqual(before);
  });
});

describe("PATCH /realm/filters/{filter_id}", () => {
  it("refuses a member and an unknown ID", async () => {
    const params = { pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/t/{id}" };
    expect((await org.api(org.users.member, "PATCH", `/realm/filters/${tracId}`, params)).body).toEqual(
      err("Must be an organization administrator"),
    );
    expect((await org.api(org.users.admin, "PATCH", "/realm/filters/999999", params)).body).toEqual(err("Linkifier not found."));
    expect((await stored()).find((l) => l.id === tracId)?.pattern).toBe(TRAC.pattern);
  });

  it("refuses a bad pattern and keeps the linkifier", async () => {
    const res = await org.api(org.users.admin, "PATCH", `/realm/filters/${tracId}`, { pattern: "(", url_template: "https://x.example/" });
    expect(res.body).toMatchObject({ result: "error", msg: "Bad regular expression: missing ): (" });
    expect((await stored()).find((l) => l.id === tracId)).toEqual({ id: tracId, ...TRAC });
  });

  it("updates a linkifier in place", async () => {
    const params = { pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://trac.example.com/issues/{id}" };
    const res = await org.api(org.users.admin, "PATCH", `/realm/filters/${tracId}`, params);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await list()).toEqual([{ ...params, id: tracId }]);
    // Back to the original for the rendering tests below.
    await org.api(org.users.admin, "PATCH", `/realm/filters/${tracId}`, TRAC);
  });
});

describe("rendering with linkifiers", () => {
  let abcId: number;
  let anyId: number;

  beforeAll(async () => {
    abcId = (await add({ pattern: "(?P<id>ABC-[0-9]+)", url_template: "https://one.example.com/{id}" })).body.id;
    anyId = (await add({ pattern: "(?P<id>[A-Z][A-Z0-9]*-[0-9]+)", url_template: "https://two.example.com/{id}" })).body.id;
  });

  it("POST /messages/render links matches outside code, links and words, earlier linkifiers first", async () => {
    const content = "fix #224 and ABC-12, not issue#124, `#555` or [trac #15](https://trac.example.com/ticket/16)";
    const res = await org.api(org.users.member, "POST", "/messages/render", { content });
    expect(res.body.rendered).toBe(
      '<p>fix <a href="https://trac.example.com/ticket/224">#224</a> and <a href="https://one.example.com/ABC-12">ABC-12</a>, ' +
        'not issue#124, <code>#555</code> or <a href="https://trac.example.com/ticket/16">trac #15</a></p>',
    );
  });

  it("sends a message with linked content and topic_links, in the organization's order", async () => {
    const sent = await org.api(org.users.member, "POST", "/messages", {
      type: "stream",
      to: STREAM,
      topic: "ABC-7 and #99 https://example.com",
      content: "see ABC-7",
    });
    expect(sent.body.result).toBe("success");
    const got = await org.api(org.users.member, "GET", `/messages/${sent.body.id}`);
    expect(got.body.message.content).toBe('<p>see <a href="https://one.example.com/ABC-7">ABC-7</a></p>');
    expect(got.body.message.topic_links).toEqual([
      { text: "ABC-7", url: "https://one.example.com/ABC-7" },
      { text: "#99", url: "https://trac.example.com/ticket/99" },
      { text: "https://example.com", url: "https://example.com" },
    ]);
  });

  it("PATCH /realm/linkifiers reorders them: the now-earlier linkifier wins, on edits too", async () => {
    // Refusals change nothing.
    const before = await list();
    const ids = before.map((l) => l.id);
    const reorder = (order: unknown, who = org.users.admin) =>
      org.api(who, "PATCH", "/realm/linkifiers", { ordered_linkifier_ids: JSON.stringify(order) });
    expect((await reorder([...ids].reverse(), org.users.member)).body).toEqual(err("Must be an organization administrator"));
    expect((await reorder([ids[0], ids[0]])).body).toEqual(err("The ordered list must not contain duplicated linkifiers"));
    expect((await reorder(ids.slice(1))).body).toEqual(err("The ordered list must enumerate all existing linkifiers exactly once"));
    expect(await list()).toEqual(before);
    // Reorder: `anyId` before `abcId`.
    const watcher = queueClient(org, org.users.guest);
    await watcher.register({ event_types: ["realm_linkifiers"], client_capabilities: { linkifier_url_template: true } });
    const order = [anyId, tracId, abcId];
    expect((await reorder(order)).body).toEqual({ result: "success", msg: "" });
    expect((await list()).map((l) => l.id)).toEqual(order);
    const event = await watcher.waitFor((e) => e.type === "realm_linkifiers");
    expect((event.realm_linkifiers as { id: number }[]).map((l) => l.id)).toEqual(order);
    // An edit re-renders content and topic with the new order.
    const sent = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: STREAM, topic: "t", content: "x" });
    const edit = await org.api(org.users.member, "PATCH", `/messages/${sent.body.id}`, { content: "see ABC-8", topic: "ABC-8" });
    expect(edit.body.result).toBe("success");
    const got = await org.api(org.users.member, "GET", `/messages/${sent.body.id}`);
    expect(got.body.message.content).toBe('<p>see <a href="https://two.example.com/ABC-8">ABC-8</a></p>');
    expect(got.body.message.topic_links).toEqual([{ text: "ABC-8", url: "https://two.example.com/ABC-8" }]);
  });
});

describe("DELETE /realm/filters/{filter_id}", () => {
  it("refuses a guest and an unknown ID", async () => {
    expect((await org.api(org.users.guest, "DELETE", `/realm/filters/${tracId}`)).body).toEqual(err("Must be an organization administrator"));
    expect((await org.api(org.users.admin, "DELETE", "/realm/filters/999999")).body).toEqual(err("Linkifier not found."));
  });

  it("removes a linkifier, keeps the others' order, and rendering stops linking it", async () => {
    const before = await list();
    const res = await org.api(org.users.admin, "DELETE", `/realm/filters/${tracId}`);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await list()).toEqual(before.filter((l) => l.id !== tracId));
    const rendered = await org.api(org.users.member, "POST", "/messages/render", { content: "fix #224" });
    expect(rendered.body.rendered).toBe("<p>fix #224</p>");
  });
});
