/**
 * Replays one Git-host integration's recorded requests and prints every
 * result (index, kind, event type, topic, content) for a file snapshot.
 */
import type { Integration, WebhookResult } from "../../shared/integrations/types.js";
import { fixtureRequest, type WebhookFixture } from "../support/webhook-fixtures.js";

/** The result of one fixture, or the message of what it threw. */
export function runGitFixture(integration: Integration, fixture: WebhookFixture): WebhookResult | { kind: "thrown"; message: string } {
  try {
    return integration.handle(fixtureRequest(fixture));
  } catch (error) {
    return { kind: "thrown", message: (error as Error).message };
  }
}

/** Every fixture's result as Markdown, one section per fixture. */
export function renderGitFixtures(integration: Integration, fixtures: WebhookFixture[]): string {
  const sections = fixtures.map((fixture) => {
    const result = runGitFixture(integration, fixture);
    const head = `## ${fixture.index}: ${result.kind}`;
    if (result.kind === "thrown") return `${head}\n\n${result.message}`;
    if (result.kind !== "messages") return `${head} (${result.eventType})`;
    const messages = result.messages.map((m) => `topic: ${m.topic}\n\n${m.content}`);
    return `${head} (${result.eventType})\n\n${messages.join("\n\n---\n\n")}`;
  });
  return `${sections.join("\n\n")}\n`;
}

/** The result of an event that posts one message. */
export function gitMessage(eventType: string, topic: string, content: string): WebhookResult {
  return { kind: "messages", eventType, messages: [{ topic, content }] };
}
