/**
 * Renders what an integration makes of every fixture as one Markdown-ish
 * text, for a reviewed file snapshot: index, kind, eventType, then each
 * message's topic and content (or the error a fixture throws).
 */
import type { Integration } from "../../shared/integrations/types.js";
import { fixtureRequest, type WebhookFixture } from "../support/webhook-fixtures.js";

export function renderWebhookResults(integration: Integration, fixtures: WebhookFixture[]): string {
  const parts: string[] = [];
  for (const fixture of fixtures) {
    let text: string;
    try {
      const result = integration.handle(fixtureRequest(fixture));
      text = `## fixture ${fixture.index}: ${result.kind}, eventType ${JSON.stringify(result.eventType)}`;
      if (result.kind === "messages") {
        for (const message of result.messages) {
          text += `\n\n### topic: ${message.topic}\n\n${message.content}`;
        }
      }
    } catch (error) {
      text = `## fixture ${fixture.index}: THROWS ${(error as Error).constructor.name}: ${(error as Error).message}`;
    }
    parts.push(text);
  }
  return `${parts.join("\n\n---\n\n")}\n`;
}

/** A request as a sender would make it, for hand-written refusal tests. */
export function webhookRequest(
  body: unknown,
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
): { headers: Record<string, string>; query: Record<string, string>; body: string; contentType: string } {
  return {
    headers,
    query,
    body: typeof body === "string" ? body : JSON.stringify(body),
    contentType: "application/json",
  };
}
