/**
 * Replays every recorded request of every registered integration over HTTP
 * with an incoming-webhook bot's key, and checks the answer and the stored
 * messages against what the integration's pure `handle()` makes of the
 * same request (after the endpoint's `topic` override, filters and caps).
 */
import { beforeAll, expect, it } from "vitest";
import { normalizeContent, normalizeTopic } from "../../shared/domain/message-fields.js";
import { isEventFilteredOut, unquoteParameter } from "../../shared/actions/webhooks/send-webhook-message.js";
import { BotType } from "../../shared/domain/roles.js";
import { integrationByName, integrationNames } from "../../shared/integrations/registry.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { describeFixtures, fixtureRequest, webhookFixtures, type WebhookFixture } from "../support/webhook-fixtures.js";
import { createStreamId } from "./streams-helpers.js";

const org = useTestOrg();

let bot: TestUser;
/** Stream name (lower-cased) → ID, for every `stream` the fixtures name. */
const streamIds = new Map<string, number>();
/** The newest message ID the bot has sent, as seen by its owner. */
let lastId = 0;

beforeAll(async () => {
  const owner = org.users.member;
  const res = await org.api(owner, "POST", "/bots", {
    full_name: "Fixture replay",
    short_name: "fixtures",
    bot_type: BotType.INCOMING_WEBHOOK,
  });
  expect(res.body).toMatchObject({ result: "success" });
  bot = { id: res.body.user_id, email: "fixtures-bot@127.0.0.1", apiKey: res.body.api_key, fullName: "Fixture replay", role: 400 };
  const names = new Set<string>();
  for (const name of integrationNames()) {
    for (const fixture of webhookFixtures(name)) {
      for (const [k, v] of fixture.query ?? []) if (k === "stream" && !/^[0-9]+$/.test(v)) names.add(v);
    }
  }
  for (const name of names) {
    if (streamIds.has(name.toLowerCase())) continue;
    streamIds.set(name.toLowerCase(), await createStreamId(org, owner, name));
  }
});

/** The bot's messages after {@link lastId}, oldest first, raw Markdown (as its owner sees them). */
async function newMessages(limit: number): Promise<Record<string, any>[]> {
  const res = await org.api(org.users.member, "GET", "/messages", {
    anchor: lastId,
    include_anchor: false,
    num_before: 0,
    num_after: limit,
    narrow: [{ operator: "sender", operand: bot.id }],
    apply_markdown: false,
  });
  expect(res.body.result).toBe("success");
  const messages = res.body.messages as Record<string, any>[];
  for (const m of messages) lastId = Math.max(lastId, m.id);
  return messages;
}

/** Moves {@link lastId} to the bot's newest message, so one integration's leftovers never count as the next one's. */
async function skipToNewest(): Promise<void> {
  const res = await org.api(org.users.member, "GET", "/messages", {
    anchor: "newest",
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: "sender", operand: bot.id }],
  });
  expect(res.body.result).toBe("success");
  for (const m of res.body.messages as { id: number }[]) lastId = Math.max(lastId, m.id);
}

/** Sends a fixture as its sender did, with the bot's key added to the query. */
async function replay(fixture: WebhookFixture): Promise<{ status: number; body: Record<string, any> }> {
  const query = new URLSearchParams(fixture.query ?? []);
  query.set("api_key", bot.apiKey);
  const headers: Record<string, string> = { ...fixture.headers };
  if (fixture.content_type) headers["content-type"] = fixture.content_type;
  const res = await fetch(`${org.url}${fixture.path}?${query}`, {
    method: fixture.method,
    headers,
    body: fixture.method === "GET" ? undefined : fixture.body,
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, any> };
  } catch {
    return { status: res.status, body: { raw: text } };
  }
}

/** What one fixture must produce: the HTTP answer, and the messages stored in order. */
interface Expectation {
  label: string;
  status: number;
  body: Record<string, unknown>;
  stored: { type: string; stream_id: number | undefined; topic: string; content: string }[];
}

/** The answer and messages a fixture must produce, from the integration's pure `handle()`. */
function expectationOf(name: string, fixture: WebhookFixture): Expectation {
  const integration = integrationByName(name)!;
  const label = `${name} #${fixture.index} (${Object.values(fixture.headers ?? {}).join(" ")})`;
  const request = fixtureRequest(fixture);
  let result: WebhookResult;
  try {
    result = integration.handle(request);
  } catch (err) {
    throw new Error(`${label}: the integration refuses its own fixture: ${String(err)}`);
  }
  if (result.kind === "unsupported") {
    return {
      label,
      status: 200,
      body: {
        result: "error",
        msg: `The '${result.eventType}' event isn't currently supported by the ${integration.displayName} webhook; ignoring`,
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        webhook_name: integration.displayName,
        event_type: result.eventType,
      },
      stored: [],
    };
  }
  const { only_events: only, exclude_events: exclude } = request.query;
  // Integrations that percent-decode `stream` and `topic` once more (Jira) post where the decoded names say.
  const unquote = (v: string | undefined) => (integration.unquoteUrlParameters ? unquoteParameter(v) : v);
  const stream = unquote(request.query.stream);
  const topic = unquote(request.query.topic);
  const dropped =
    result.kind === "ignored" ||
    isEventFilteredOut(
      result.eventType,
      only === undefined ? undefined : (JSON.parse(only) as string[]),
      exclude === undefined ? undefined : (JSON.parse(exclude) as string[]),
    );
  const messages = result.kind === "messages" && !dropped ? result.messages : [];
  return {
    label,
    status: 200,
    body: { result: "success", msg: "", ...integration.successFields },
    stored: messages.map((m) =>
      stream === undefined
        ? { type: "private", stream_id: undefined, topic: "", content: normalizeContent(m.content) }
        : {
            type: "stream",
            stream_id: /^[0-9]+$/.test(stream) ? Number(stream) : streamIds.get(stream.toLowerCase()),
            topic: normalizeTopic(topic ?? m.topic),
            content: normalizeContent(m.content),
          },
    ),
  };
}

// One test per integration: its fixtures are replayed one after another (their
// messages must come out in order), then the bot's new messages are read once
// and matched to the fixtures in turn; every mismatch is reported with the
// fixture's name and index.
for (const name of integrationNames()) {
  describeFixtures(name, (fixtures) => {
    it(`replays all ${fixtures.length} fixtures`, { timeout: 30 * 60_000 }, async () => {
      await skipToNewest();
      const expectations = fixtures.map((f) => expectationOf(name, f));
      const answers: { label: string; status: number; body: Record<string, any> }[] = [];
      for (const [i, fixture] of fixtures.entries()) answers.push({ label: expectations[i]!.label, ...(await replay(fixture)) });
      expect(answers).toEqual(expectations.map(({ label, status, body }) => ({ label, status, body })));

      const total = expectations.reduce((n, e) => n + e.stored.length, 0);
      const stored = await newMessages(total + 1);
      const got = stored.map((m) => ({ type: m.type, stream_id: m.stream_id, topic: m.subject, content: m.content }));
      let at = 0;
      const actual = expectations.map((e) => {
        const mine = got.slice(at, at + e.stored.length);
        at += e.stored.length;
        return { label: e.label, stored: mine };
      });
      expect({ actual, extra: got.slice(at) }).toEqual({
        actual: expectations.map(({ label, stored: s }) => ({ label, stored: s })),
        extra: [],
      });
    });
  });
}
