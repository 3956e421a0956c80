import { describe, expect, it } from "vitest";
import { newrelicIntegration } from "../../shared/integrations/newrelic.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = newrelicIntegration.handle;

describeFixtures("newrelic", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(newrelicIntegration, fixtures)).toMatchFileSnapshot("./expected/newrelic.md");
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

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "open",
      messages: [
        {
          topic: "Test policy name (1234)",
          content: "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **opened** for condition **Server Down** at <time:2020-11-11T22:32:11.151Z>\n```quote\nViolation description test.\n```"
        }
      ]
    }
  ],
  [
    1,
    {
      kind: "messages",
      eventType: "closed",
      messages: [
        {
          topic: "Test policy name (1234)",
          content: "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **closed** for condition **Server Down**"
        }
      ]
    }
  ],
  [
    2,
    {
      kind: "messages",
      eventType: "acknowledged",
      messages: [
        {
          topic: "Test policy name (1234)",
          content: "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **acknowledged** by **Alice** for condition **Server Down**"
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "activated",
      messages: [
        {
          topic: "Test policy name (8ceed342-f305-4bfa-adb8-97ba93f5dd26)",
          content: "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **activated** for condition **Server Down** at <time:2020-11-11T22:32:11.151Z>\n```quote\nViolation description test.\n```"
        }
      ]
    }
  ],
  [
    5,
    {
      kind: "messages",
      eventType: "created",
      messages: [
        {
          topic: "Test policy name (8114ada3-572e-4550-a310-12375371669e)",
          content: "[Incident](https://alerts.newrelic.com/accounts/2941966/incidents/1234) **created** for condition **Server Down** at <time:2020-11-11T22:32:11.151Z>\n```quote\nViolation description test.\n```"
        }
      ]
    }
  ]
];

describeFixtures("newrelic", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
