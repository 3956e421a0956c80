/**
 * Renders what an integration makes of each of its recorded requests as
 * one Markdown document, for a reviewed file snapshot per integration
 * (`test/integrations/expected/<name>.md`): index, kind, event type,
 * topic and content of every fixture, or the error a fixture raised.
 */
import type { Integration, WebhookRequest } from "../../shared/integrations/types.js";
import { fixtureRequest, type WebhookFixture } from "../support/webhook-fixtures.js";

/** One section per fixture, in file order. */
export function renderFixtureResults(integration: Integration, fixtures: WebhookFixture[]): string {
  return fixtures.map((fixture) => renderOne(integration, fixture)).join("\n");
}

function renderOne(integration: Integration, fixture: WebhookFixture): string {
  let result;
  try {
    result = integration.handle(fixtureRequest(fixture));
  } catch (error) {
    return `## ${fixture.index}: error\n\n${(error as Error).message}\n`;
  }
  const head = `## ${fixture.index}: ${result.kind} (event type: ${result.eventType ?? "none"})\n`;
  if (result.kind !== "messages") return head;
  const messages = result.messages.map((m) => `### topic: ${m.topic}\n\n${m.content}\n`);
  return `${head}\n${messages.join("\n")}`;
}

/** A hand-made JSON request, for the refusal cases no fixture covers. */
export function jsonWebhookRequest(
  body: unknown,
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
): WebhookRequest {
  return { headers, query, body: JSON.stringify(body), contentType: "application/json" };
}
