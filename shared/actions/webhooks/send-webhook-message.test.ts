import { describe, expect, it } from "vitest";
import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { JsonableError, UnsupportedWebhookEventTypeError } from "../../errors.js";
import { jsonPayload, WebhookPayloadError } from "../../integrations/payload.js";
import type { Integration, WebhookResult } from "../../integrations/types.js";
import {
  checkSendWebhookMessage,
  eventPatternMatches,
  webhookRequestForIntegration,
  isEventFilteredOut,
  unquoteParameter,
  type IncomingWebhookRequest,
} from "./send-webhook-message.js";

describe("eventPatternMatches", () => {
  it("matches as Python's fnmatch on POSIX", () => {
    expect(eventPatternMatches("pull_request_opened", "pull_request_*")).toBe(true);
    expect(eventPatternMatches("push", "pull*")).toBe(false);
    expect(eventPatternMatches("issue.created", "issue.*")).toBe(true);
    expect(eventPatternMatches("issueXcreated", "issue.created")).toBe(false);
    expect(eventPatternMatches("tag1", "tag?")).toBe(true);
    expect(eventPatternMatches("tag12", "tag?")).toBe(false);
    expect(eventPatternMatches("b", "[abc]")).toBe(true);
    expect(eventPatternMatches("b", "[!abc]")).toBe(false);
    expect(eventPatternMatches("Push", "push")).toBe(false);
    expect(eventPatternMatches("a[b", "a[b")).toBe(true);
  });
});

describe("isEventFilteredOut", () => {
  it("keeps events matching only_events and drops those matching exclude_events", () => {
    expect(isEventFilteredOut("push", ["push", "issues*"], undefined)).toBe(false);
    expect(isEventFilteredOut("star", ["push", "issues*"], undefined)).toBe(true);
    expect(isEventFilteredOut("issues_opened", undefined, ["issues*"])).toBe(true);
    expect(isEventFilteredOut("push", ["*"], ["push"])).toBe(true);
    expect(isEventFilteredOut("push", [], undefined)).toBe(true);
  });

  it("never drops an event without a type", () => {
    expect(isEventFilteredOut(null, ["push"], ["*"])).toBe(false);
  });
});

describe("unquoteParameter", () => {
  it("percent-decodes once more, keeping what does not decode", () => {
    expect(unquoteParameter("jira%20alerts")).toBe("jira alerts");
    expect(unquoteParameter("alerts%2520test")).toBe("alerts%20test");
    expect(unquoteParameter("caf%C3%A9 %E2%9C%94")).toBe("café ✔");
    expect(unquoteParameter("100% sure %zz %C3")).toBe("100% sure %zz %C3");
    expect(unquoteParameter("plain")).toBe("plain");
    expect(unquoteParameter(undefined)).toBeUndefined();
  });
});

describe("webhookRequestForIntegration", () => {
  it("lower-cases header names, drops api_key and strips content-type parameters", () => {
    const req = webhookRequestForIntegration({
      integrationName: "x",
      headers: { "X-GitHub-Event": "push", "Content-Type": "application/json; charset=utf-8" },
      query: new Map([
        ["api_key", "secret"],
        ["branches", "main"],
      ]),
      body: Buffer.from('{"a":1}'),
    });
    expect(req).toEqual({
      headers: { "x-github-event": "push", "content-type": "application/json; charset=utf-8" },
      query: { branches: "main" },
      body: '{"a":1}',
      contentType: "application/json",
    });
  });
});

describe("checkSendWebhookMessage", () => {
  const errors: string[] = [];
  const deps = { log: { error: (msg: string) => errors.push(msg) } } as unknown as Deps;
  const realm = { id: 1 } as RealmRecord;
  const bot = { user_id: 2, is_bot: true, bot_owner_id: 3 } as UserRecord;
  const fake = (handle: Integration["handle"]): ((name: string) => Integration | undefined) => (name) =>
    name === "fake" ? { name: "fake", displayName: "Fake Service", handle } : undefined;
  const req = (extra: Partial<IncomingWebhookRequest> = {}): IncomingWebhookRequest => ({
    integrationName: "fake",
    headers: { "content-type": "application/json" },
    query: new Map(),
    body: Buffer.from("{}"),
    stream: "s",
    ...extra,
  });
  const run = (result: () => WebhookResult, extra?: Partial<IncomingWebhookRequest>) =>
    checkSendWebhookMessage(deps, realm, bot, req(extra), fake(result));

  it("answers an unsupported event with UNSUPPORTED_WEBHOOK_EVENT_TYPE and HTTP 200", async () => {
    const err = await run(() => ({ kind: "unsupported", eventType: "team_add" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedWebhookEventTypeError);
    const e = err as UnsupportedWebhookEventTypeError;
    expect(e.httpStatus).toBe(200);
    expect(e.toEnvelope()).toEqual({
      result: "error",
      msg: "The 'team_add' event isn't currently supported by the Fake Service webhook; ignoring",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      webhook_name: "Fake Service",
      event_type: "team_add",
    });
  });

  it("posts nothing for an ignored event or one the filters drop (no store is touched)", async () => {
    await expect(run(() => ({ kind: "ignored", eventType: "ping" }))).resolves.toEqual({});
    const message = { kind: "messages" as const, eventType: "push", messages: [{ topic: "t", content: "c" }] };
    await expect(run(() => message, { onlyEvents: ["issues*"] })).resolves.toEqual({});
    await expect(run(() => message, { excludeEvents: ["pu*"] })).resolves.toEqual({});
  });

  it("answers 400 naming what the payload lacks", async () => {
    const err = await run(() => jsonPayload({ headers: {}, query: {}, body: "{}", contentType: "" }).get("pull_request") as never).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WebhookPayloadError);
    expect((err as JsonableError).toEnvelope()).toEqual({ result: "error", msg: 'payload["pull_request"] is missing', code: "BAD_REQUEST" });
  });

  it("turns an integration's crash into a logged 400, never a 500", async () => {
    const err = await run(() => {
      throw new TypeError("boom");
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonableError);
    expect((err as JsonableError).message).toBe("The Fake Service webhook could not read this payload");
    expect(errors).toEqual(["webhook integration failed"]);
  });

  it("refuses an unknown integration with 404 and an oversized body with 413", async () => {
    const unknown = await checkSendWebhookMessage(deps, realm, bot, req({ integrationName: "nope" }), fake(() => ({ kind: "ignored", eventType: null }))).catch(
      (e: unknown) => e,
    );
    expect((unknown as JsonableError).httpStatus).toBe(404);
    const big = await run(() => ({ kind: "ignored", eventType: null }), { body: Buffer.alloc(1024 * 1024 + 1) }).catch((e: unknown) => e);
    expect((big as JsonableError).httpStatus).toBe(413);
  });
});
