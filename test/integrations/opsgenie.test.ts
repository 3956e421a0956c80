import { describe, expect, it } from "vitest";
import { opsgenieIntegration } from "../../shared/integrations/opsgenie.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = opsgenieIntegration.handle;

describeFixtures("opsgenie", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(opsgenieIntegration, fixtures)).toMatchFileSnapshot("./expected/opsgenie.md");
  });

  it("reports a note with the alert message and tags, under the integration name", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "AddNote",
      messages: [
        {
          topic: "Integration1",
          content:
            "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n" +
            "* **Action**: AddNote\n* **Note**: note to test alert\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`",
        },
      ],
    });
  });

  it("reports an escalation, which carries only the alert ID", () => {
    const result = handle(fixtureRequest(fixtures[10]!));
    expect(result.kind === "messages" && result.eventType).toBe("Escalate");
  });
});

describe("opsgenie refusals", () => {
  it("refuses a payload without an action or an alert ID", () => {
    expect(() => handle(webhookRequest({ alert: { alertId: "a" }, integrationName: "I" }))).toThrow(
      new WebhookPayloadError('payload["action"] is missing'),
    );
    expect(() => handle(webhookRequest({ action: "Create", alert: {}, integrationName: "I" }))).toThrow(
      new WebhookPayloadError('payload["alert"]["alertId"] is missing'),
    );
  });
});
