import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { uptimerobotIntegration } from "../../shared/integrations/uptimerobot.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderFixtureResults } from "./fixture-snapshot.js";

const handle = uptimerobotIntegration.handle;
const json = (body: unknown) => ({ headers: {}, query: {}, body: JSON.stringify(body), contentType: "application/json" });

describeFixtures("uptimerobot", (fixtures) => {
  it("reports a monitor going down, topic the monitor's name", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "down",
      messages: [{ topic: "Web Server", content: "**Web Server** (server1.example.com) is **down**: Host Is Unreachable." }],
    });
  });

  it("reports a monitor coming back up with how long it was down", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "up",
      messages: [
        {
          topic: "Mail Server",
          content:
            "**Mail Server** (server2.example.com) is back **up**: Host Is Reachable.\nDowntime: 44 minutes and 37 seconds.",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(uptimerobotIntegration, fixtures)).toMatchFileSnapshot("./expected/uptimerobot.md");
  });
});

it("uptimerobot: an unknown alert type is unsupported", () => {
  expect(handle(json({ alert_type_friendly_name: "Paused" }))).toEqual({ kind: "unsupported", eventType: "paused" });
});

it("uptimerobot: a missing monitor name names the field", () => {
  expect(() => handle(json({ alert_type_friendly_name: "Down", monitor_url: "x", alert_details: "y" }))).toThrow(
    new WebhookPayloadError('payload["monitor_friendly_name"] is missing'),
  );
});
