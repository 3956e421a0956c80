/**
 * Renders what an integration makes of each of its recorded requests as
 * one Markdown document, for a reviewed file snapshot per integration
 * (`test/integrations/expected/<name>.md`): index, kind, event type,
 * topic and content of every fixture, or the error a fixture raised.
 */
import type { Integration, WebhookRequest, WebhookResult } from "../../shared/integrations/types.js";
import { fixtureRequest, type WebhookFixture } from "../support/webhook-fixtures.js";

/** One section per fixture, in file order. */
export function renderFixtureResults(integration: Integration, fixtures: WebhookFixture[]): string {
  return fixtures.map((fixture) => renderOne(integration, fixture)).join("\n");
}

/** The result of one fixture, or the message of what it threw. */
export function runFixture(integration: Integration, fixture: WebhookFixture): WebhookResult | { kind: "thrown"; message: string } {
  try {
    return integration.handle(fixtureRequest(fixture));
  } catch (error) {
    return { kind: "thrown", message: (error as Error).message };
  }
}

/** The result of an event that posts one message. */
export function oneMessage(eventType: string, topic: string, content: string): WebhookResult {
  return { kind: "messages", eventType, messages: [{ topic, content }] };
}

function renderOne(integration: Integration, fixture: WebhookFixture): string {
  const result = runFixture(integration, fixture);
  if (result.kind === "thrown") return `## ${fixture.index}: error\n\n${result.message}\n`;
  const head = `## ${fixture.index}: ${result.kind} (event type: ${result.eventType ?? "none"})\n`;
  if (result.kind !== "messages") return head;
  const messages = result.messages.map((m) => `### topic: ${m.topic}\n\n${m.content}\n`);
  return `${head}\n${messages.join("\n")}`;
}

/** A hand-made JSON request (a string body is sent as it is), for the refusal cases no fixture covers. */
export function jsonWebhookRequest(
  body: unknown,
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
): WebhookRequest {
  return { headers, query, body: typeof body === "string" ? body : JSON.stringify(body), contentType: "application/json" };
}
