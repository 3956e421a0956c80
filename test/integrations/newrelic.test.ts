import { describe, expect, it } from "vitest";
import { newrelicIntegration } from "../../shared/integrations/newrelic.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, oneMessage, renderFixtureResults } from "./fixture-snapshot.js";

const handle = newrelicIntegration.handle;
const incident = "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234)";
const at = "<time:2020-11-11 22:32:11.151000+00:00>";
const quoted = "```quote\nViolation description test.\n```";

/** Every fixture and the message Zulip's New Relic tests expect of it (the quote fence renders the same as Zulip's). */
const EXPECTED: [number, WebhookResult][] = [
  [0, oneMessage("open", "Test policy name (1234)", `${incident} **opened** for condition: **Server Down** at ${at}\n${quoted}`)],
  [1, oneMessage("closed", "Test policy name (1234)", `${incident} **closed** for condition: **Server Down**`)],
  [2, oneMessage("acknowledged", "Test policy name (1234)", `${incident} **acknowledged** by **Alice** for condition: **Server Down**`)],
  [
    3,
    oneMessage(
      "open",
      "Unknown Policy (Unknown ID)",
      `[Incident](https://alerts.newrelic.com) **opened** for condition: **Unknown condition** at ${at}\n\`\`\`quote\nNo details.\n\`\`\``,
    ),
  ],
  [4, oneMessage("activated", "Test policy name (8ceed342-f305-4bfa-adb8-97ba93f5dd26)", `${incident} **active** for condition: **Server Down** at ${at}\n${quoted}`)],
  [5, oneMessage("created", "Test policy name (8114ada3-572e-4550-a310-12375371669e)", `${incident} **created** for condition: **Server Down**`)],
  [6, oneMessage("closed", "Test policy name (f0d98b28-bf9d-49e7-b9d0-ac7cbb52e73a)", `${incident} **closed** for condition: **Server Down**`)],
  [7, oneMessage("acknowledged", "Test policy name (3576f543-dc3c-4d97-9f16-5c81f35195cb)", `${incident} **acknowledged** by **Alice** for condition: **Server Down**`)],
  [
    8,
    oneMessage(
      "activated",
      "Unknown Policy (e04156e4-4cac-4f39-9d27-75d361e40a6d)",
      `[Incident](https://alerts.newrelic.com) **active** for condition: **Unknown condition** at ${at}\n\`\`\`quote\nNo details.\n\`\`\``,
    ),
  ],
];

describeFixtures("newrelic", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(newrelicIntegration, fixtures)).toMatchFileSnapshot("./expected/newrelic.md");
  });

  it.each(EXPECTED)("fixture %i gives Zulip's message", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});

describe("newrelic refusals", () => {
  it("refuses an incident without its time, with a time that is not a number, or in an undocumented state", () => {
    expect(() => handle(webhookRequest({ current_state: "open" }))).toThrow(
      new WebhookPayloadError("The newrelic webhook requires timestamp in milliseconds"),
    );
    expect(() => handle(webhookRequest({ current_state: "open", timestamp: "soon" }))).toThrow(
      new WebhookPayloadError("The newrelic webhook expects time in milliseconds."),
    );
    expect(() => handle(webhookRequest({ current_state: "melted", timestamp: 1 }))).toThrow(
      new WebhookPayloadError("The newrelic webhook requires current_state be in [open|acknowledged|closed]"),
    );
  });

  it("refuses a workflow issue without a state", () => {
    expect(() => handle(webhookRequest({ id: "x", createdAt: 1 }))).toThrow(
      new WebhookPayloadError("The newrelic webhook requires state be in [created|activated|acknowledged|closed]"),
    );
  });

  it("prints a whole-second time without a fraction, as Zulip does", () => {
    const result = handle(webhookRequest({ current_state: "open", timestamp: 1605133931000 }));
    expect(result).toMatchObject({ messages: [{ content: expect.stringContaining("at <time:2020-11-11 22:32:11+00:00>") }] });
  });
});
