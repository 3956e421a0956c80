import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { statuspageIntegration } from "../../shared/integrations/statuspage.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = statuspageIntegration.handle;

describeFixtures("statuspage", (fixtures) => {
  it("reports an incident with its state and latest update", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "incident",
      messages: [
        {
          topic: "Database query delays: All Systems Operational",
          content: "**Database query delays**\n* State: **resolved**\n* Update: The database issue is resolved.",
        },
      ],
    });
  });

  it("reports a component's status change", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: "component",
      messages: [
        {
          topic: "Database component: Service Under Maintenance",
          content: "**Database component** changed status from **operational** to **under_maintenance**.",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(statuspageIntegration, fixtures)).toMatchFileSnapshot("./expected/statuspage.md");
  });
});

it("statuspage: a payload with neither incident nor component is unsupported", () => {
  expect(handle(jsonWebhookRequest({ page: { status_description: "ok" } }))).toEqual({
    kind: "unsupported",
    eventType: "unknown-event",
  });
});

it("statuspage: an incident without updates names what is missing", () => {
  const body = { page: { status_description: "ok" }, incident: { name: "n", status: "s", incident_updates: [] } };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(
    new WebhookPayloadError('payload["incident"]["incident_updates"][0] is missing'),
  );
});

it("statuspage: a component change without the page names the field", () => {
  const body = { component: { name: "c" }, component_update: { old_status: "a", new_status: "b" } };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(new WebhookPayloadError('payload["page"] is missing'));
});
