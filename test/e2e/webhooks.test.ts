import { beforeAll, describe, expect, it } from "vitest";
import { updateUserFields } from "../../shared/data/users.js";
import { BotType } from "../../shared/domain/roles.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId } from "./streams-helpers.js";

const org = useTestOrg();

let seq = 0;
/** An incoming-webhook bot owned by `owner`, created through the API. */
async function webhookBot(owner: TestUser): Promise<TestUser> {
  seq += 1;
  const short = `hook${seq}`;
  const res = await org.api(owner, "POST", "/bots", { full_name: `Hook ${seq}`, short_name: short, bot_type: BotType.INCOMING_WEBHOOK });
  expect(res.body).toMatchObject({ result: "success" });
  return { id: res.body.user_id, email: `${short}-bot@127.0.0.1`, apiKey: res.body.api_key, fullName: `Hook ${seq}`, role: 400 };
}

interface HookCall {
  integration?: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
  method?: string;
  headers?: Record<string, string>;
}

/** Calls the webhook endpoint as a sender would. */
async function hook(call: HookCall): Promise<{ status: number; body: Record<string, any> }> {
  const qs = new URLSearchParams(call.query ?? {}).toString();
  const headers: Record<string, string> = { ...call.headers };
  if (call.body !== undefined) headers["content-type"] = call.contentType ?? "application/json";
  const res = await fetch(`${org.url}/api/v1/external/${call.integration ?? "json"}${qs ? `?${qs}` : ""}`, {
    method: call.method ?? "POST",
    headers,
    body: call.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The newest message `viewer` sees that `sender` (an email) sent, raw Markdown. */
async function lastFrom(viewer: TestUser, sender: string): Promise<Record<string, any> | undefined> {
  const res = await org.api(viewer, "GET", "/messages", {
    anchor: "newest",
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: "sender", operand: sender }],
    apply_markdown: false,
  });
  expect(res.body.result).toBe("success");
  return res.body.messages.at(-1);
}

const ok = { status: 200, body: { result: "success", msg: "" } };
const jsonBlock = (text: string) => "```json\n" + text + "\n```";

let bot: TestUser;
let streamId: number;

beforeAll(async () => {
  bot = await webhookBot(org.users.member);
  streamId = await createStreamId(org, org.users.member, "hooks");
});

describe("POST /external/json", () => {
  it("posts the payload to a stream named by `stream`, topic JSON", async () => {
    const res = await hook({ query: { api_key: bot.apiKey, stream: "hooks" }, body: '{"b": [1, true, null], "a": "é"}' });
    expect(res).toEqual(ok);
    const msg = await lastFrom(org.users.member, bot.email);
    expect(msg).toMatchObject({
      type: "stream",
      stream_id: streamId,
      subject: "JSON",
      content: jsonBlock('{\n  "b": [\n    1,\n    true,\n    null\n  ],\n  "a": "\\u00e9"\n}'),
      client: "ZulipJSONWebhook",
    });
  });

  it("takes a stream ID when `stream` is all digits, and `topic` over the integration's", async () => {
    const res = await hook({ query: { api_key: bot.apiKey, stream: String(streamId), topic: "deploys" }, body: "[]" });
    expect(res).toEqual(ok);
    expect(await lastFrom(org.users.member, bot.email)).toMatchObject({ stream_id: streamId, subject: "deploys", content: jsonBlock("[]") });
  });

  it("sends a direct message to the bot's owner without `stream`", async () => {
    const res = await hook({ query: { api_key: bot.apiKey }, body: '{"x": 1}' });
    expect(res).toEqual(ok);
    const msg = await lastFrom(org.users.member, bot.email);
    expect(msg).toMatchObject({ type: "private", content: jsonBlock('{\n  "x": 1\n}') });
    expect(msg!.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual([org.users.member.id, bot.id].sort());
  });

  it("truncates content over 10,000 bytes and topics over 60 characters as Zulip does", async () => {
    const long = "x".repeat(12_000);
    const topic = "t".repeat(70);
    const res = await hook({ query: { api_key: bot.apiKey, stream: "hooks", topic }, body: JSON.stringify({ long }) });
    expect(res).toEqual(ok);
    const msg = await lastFrom(org.users.member, bot.email);
    expect(msg!.subject).toBe("t".repeat(57) + "...");
    expect(msg!.content.endsWith("\n[message truncated]")).toBe(true);
    expect(Buffer.byteLength(msg!.content, "utf8")).toBeLessThanOrEqual(10_000);
    expect(msg!.content.startsWith('```json\n{\n  "long": "xxx')).toBe(true);
  });

  it("accepts a form body's `payload` field and HTTP Basic credentials", async () => {
    const form = new URLSearchParams({ payload: '{"via": "form"}' }).toString();
    const basic = `Basic ${Buffer.from(`${bot.email}:${bot.apiKey}`).toString("base64")}`;
    const res = await hook({
      query: { stream: "hooks" },
      body: form,
      contentType: "application/x-www-form-urlencoded",
      headers: { authorization: basic },
    });
    expect(res).toEqual(ok);
    expect(await lastFrom(org.users.member, bot.email)).toMatchObject({ content: jsonBlock('{\n  "via": "form"\n}') });
  });

  it("never filters an integration's events that have no type; refuses malformed filters", async () => {
    const kept = await hook({ query: { api_key: bot.apiKey, stream: "hooks", topic: "kept", only_events: '["push"]', exclude_events: '["*"]' }, body: "{}" });
    expect(kept).toEqual(ok);
    expect(await lastFrom(org.users.member, bot.email)).toMatchObject({ subject: "kept", content: jsonBlock("{}") });
    const bad = await hook({ query: { api_key: bot.apiKey, stream: "hooks", only_events: "push" }, body: "{}" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
  });

  it("answers success for a stream that does not exist, and the owner hears once from the Notification Bot", async () => {
    const lonely = await webhookBot(org.users.member2);
    const first = await hook({ query: { api_key: lonely.apiKey, stream: "nowhere" }, body: "{}" });
    expect(first).toEqual(ok);
    const notice = await lastFrom(org.users.member2, "notification-bot@zulip.com");
    expect(notice).toMatchObject({
      type: "private",
      content:
        `Your bot \`${lonely.email}\` tried to post to the channel #**nowhere**, but that channel does not exist. ` +
        "[Create it](#channels/new) or correct the integration's URL.",
    });
    expect(await lastFrom(org.users.member2, lonely.email)).toBeUndefined();
    // Within five minutes the owner is not told again.
    const again = await hook({ query: { api_key: lonely.apiKey, stream: "999999" }, body: "{}" });
    expect(again).toEqual(ok);
    expect((await lastFrom(org.users.member2, "notification-bot@zulip.com"))!.id).toBe(notice!.id);
  });

  it("names a missing stream ID in the owner's notice", async () => {
    const other = await webhookBot(org.users.member2);
    expect(await hook({ query: { api_key: other.apiKey, stream: "987654" }, body: "{}" })).toEqual(ok);
    expect(await lastFrom(org.users.member2, "notification-bot@zulip.com")).toMatchObject({
      content: `Your bot \`${other.email}\` tried to post to the channel with ID 987654, but no channel has that ID.`,
    });
  });

  it("refuses a private stream the bot and its owner cannot post to", async () => {
    await createStreamId(org, org.users.admin, "hooks secret", { inviteOnly: true });
    const res = await hook({ query: { api_key: bot.apiKey, stream: "hooks secret" }, body: "{}" });
    expect(res).toEqual({ status: 400, body: { result: "error", msg: "Not authorized to send to channel 'hooks secret'", code: "BAD_REQUEST" } });
  });

  it("refuses a body that is not JSON, naming it", async () => {
    for (const [body, contentType] of [
      ["not json", "text/plain"],
      ["{broken", "application/json"],
      ["payload=nope", "application/x-www-form-urlencoded"],
    ] as const) {
      const res = await hook({ query: { api_key: bot.apiKey, stream: "hooks" }, body, contentType });
      expect({ body, res }).toEqual({ body, res: { status: 400, body: { result: "error", msg: "Malformed JSON", code: "BAD_REQUEST" } } });
    }
    const empty = await hook({ method: "GET", query: { api_key: bot.apiKey, stream: "hooks" } });
    expect(empty).toEqual({ status: 400, body: { result: "error", msg: "Malformed JSON", code: "BAD_REQUEST" } });
    // The owner hears of it once (the five-minute limit covers the later requests).
    const notices = await org.api(org.users.member, "GET", "/messages", {
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: "sender", operand: "notification-bot@zulip.com" }],
      apply_markdown: false,
    });
    expect(notices.body.messages.map((m: { content: string }) => m.content)).toEqual([
      `Your bot \`${bot.email}\` received a request for the JSON integration whose body is not the JSON this integration expects. ` +
        "Check the webhook's settings (its content type and payload format) at the sender.",
    ]);
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const res = await hook({ query: { api_key: bot.apiKey, stream: "hooks" }, body: JSON.stringify({ big: "y".repeat(1024 * 1024) }) });
    expect(res).toEqual({ status: 413, body: { result: "error", msg: "Request body too large (limit: 1048576 bytes)", code: "BAD_REQUEST" } });
  });
});

describe("webhook authentication", () => {
  it("answers a sender's HEAD check of the URL with 200 and posts nothing, once the key is good", async () => {
    const url = (query: Record<string, string>) => `${org.url}/api/v1/external/trello?${new URLSearchParams(query)}`;
    const before = await lastFrom(org.users.member, bot.email);
    const good = await fetch(url({ api_key: bot.apiKey, stream: "hooks" }), { method: "HEAD" });
    expect(good.status).toBe(200);
    expect(await lastFrom(org.users.member, bot.email)).toEqual(before);
    const wrong = await fetch(url({ api_key: "x".repeat(32), stream: "hooks" }), { method: "HEAD" });
    expect(wrong.status).toBe(401);
    const unknown = await fetch(`${org.url}/api/v1/external/no-such-integration?api_key=${bot.apiKey}`, { method: "HEAD" });
    expect(unknown.status).toBe(404);
  });

  it("answers 404 for an unknown integration, whatever the credentials", async () => {
    for (const query of [{}, { api_key: bot.apiKey }] as Record<string, string>[]) {
      const res = await hook({ integration: "no-such-integration", query, body: "{}" });
      expect(res).toEqual({ status: 404, body: { result: "error", msg: "Not Found", code: "BAD_REQUEST" } });
    }
  });

  it("refuses a missing key (400) and a wrong key (401) as Zulip does", async () => {
    const missing = await hook({ query: { stream: "hooks" }, body: "{}" });
    expect(missing).toEqual({
      status: 400,
      body: { result: "error", msg: "Missing 'api_key' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "api_key" },
    });
    const wrong = await hook({ query: { api_key: "x".repeat(32), stream: "hooks" }, body: "{}" });
    expect(wrong).toEqual({ status: 401, body: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" } });
  });

  it("refuses a deactivated bot and a bot whose owner is deactivated", async () => {
    const deactivated = { status: 401, body: { result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" } };
    const gone = await webhookBot(org.users.member);
    await org.api(org.users.member, "DELETE", `/bots/${gone.id}`);
    expect(await hook({ query: { api_key: gone.apiKey, stream: "hooks" }, body: "{}" })).toEqual(deactivated);

    const owner = await org.createUser("hook-owner");
    const orphan = await webhookBot(owner);
    expect(await hook({ query: { api_key: orphan.apiKey, stream: "hooks" }, body: "{}" })).toEqual(ok);
    // Deactivate only the owner's account record, so the bot stays active: the owner check alone must refuse it.
    await updateUserFields(org.stack.deps, org.realm.id, owner.id, { is_active: false });
    expect(await hook({ query: { api_key: orphan.apiKey, stream: "hooks" }, body: "{}" })).toEqual(deactivated);
  });
});
