import { describe, expect, it } from "vitest";
import { newrelicIntegration } from "../../shared/integrations/newrelic.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = newrelicIntegration.handle;

describeFixtures("newrelic", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(newrelicIntegration, fixtures)).toMatchFileSnapshot("./expected/newrelic.md");
  });

  it("reports an opened incident with its time and details, topic policy (id)", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "open",
      messages: [
        {
          topic: "Test policy name (1234)",
          content:
            "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **opened** for condition " +
            "**Server Down** at <time:2020-11-11T22:32:11.151Z>\n```quote\nViolation description test.\n```",
        },
      ],
    });
  });

  it("names who acknowledged a workflow issue", () => {
    expect(handle(fixtureRequest(fixtures[7]!))).toEqual({
      kind: "messages",
      eventType: "acknowledged",
      messages: [
        {
          topic: "Test policy name (3576f543-dc3c-4d97-9f16-5c81f35195cb)",
          content:
            "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **acknowledged** by **Alice** " +
            "for condition **Server Down**",
        },
      ],
    });
  });
});

describe("newrelic refusals", () => {
  it("refuses an incident without its time and an undocumented state", () => {
    expect(() => handle(webhookRequest({ current_state: "open" }))).toThrow(
      new WebhookPayloadError('payload["timestamp"] is missing'),
    );
    expect(() => handle(webhookRequest({ current_state: "melted", timestamp: 1 }))).toThrow(
      new WebhookPayloadError("The New Relic state 'melted' is not one of open, created, activated, acknowledged or closed"),
    );
  });

  it("refuses a payload with neither state field", () => {
    expect(() => handle(webhookRequest({ id: "x" }))).toThrow(new WebhookPayloadError('payload["state"] is missing'));
  });
});
