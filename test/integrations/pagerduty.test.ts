import { describe, expect, it } from "vitest";
import { pagerdutyIntegration } from "../../shared/integrations/pagerduty.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = pagerdutyIntegration.handle;

describeFixtures("pagerduty", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(pagerdutyIntegration, fixtures)).toMatchFileSnapshot("./expected/pagerduty.md");
  });

  it("reports a v1 trigger: service, assignee by email name, trigger subject quoted", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "triggered",
      messages: [
        {
          topic: "Incident 3",
          content:
            "Incident [3](https://zulip-test.pagerduty.com/incidents/P140S4Y) was triggered by " +
            "[Test service](https://zulip-test.pagerduty.com/services/PIL5CUQ); assigned to " +
            "[armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nfoo\n```",
        },
      ],
    });
  });

  it("reports a v3 resolution by its agent under `Incident <title> (#<number>)`", () => {
    expect(handle(fixtureRequest(fixtures[8]!))).toEqual({
      kind: "messages",
      eventType: "resolved",
      messages: [
        {
          topic: "Incident Test Incident (#6)",
          content:
            "Incident [Test Incident (#6)](https://pig208.pagerduty.com/incidents/PCPZE64) was resolved by " +
            "[PIG 208](https://pig208.pagerduty.com/users/PJ0LVEB).",
        },
      ],
    });
  });

  it("posts each notification of a v1 batch, reporting the first one's event type", () => {
    const result = handle(fixtureRequest(fixtures[10]!));
    expect(result.kind === "messages" && [result.eventType, result.messages.length]).toEqual(["assigned", 2]);
  });
});

describe("pagerduty unsupported events and refusals", () => {
  it("does not support unknown v1, v2 or v3 event names", () => {
    expect(handle(webhookRequest({ messages: [{ type: "incident.exploded" }] }))).toEqual({
      kind: "unsupported",
      eventType: "incident.exploded",
    });
    expect(handle(webhookRequest({ messages: [{ event: "incident.escalate" }] }))).toEqual({
      kind: "unsupported",
      eventType: "incident.escalate",
    });
    expect(handle(webhookRequest({ event: { event_type: "service.created", data: {} } }))).toEqual({
      kind: "unsupported",
      eventType: "service.created",
    });
  });

  it("ignores an empty batch", () => {
    expect(handle(webhookRequest({ messages: [] }))).toEqual({ kind: "ignored", eventType: null });
  });

  it("refuses a v3 incident without its number", () => {
    const data = { title: "T", html_url: "https://x/i/1" };
    expect(() => handle(webhookRequest({ event: { event_type: "incident.reopened", data } }))).toThrow(
      new WebhookPayloadError('payload["event"]["data"]["number"] is missing'),
    );
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "triggered",
      messages: [
        {
          topic: "Incident 3",
          content: "Incident [3](https://zulip-test.pagerduty.com/incidents/P140S4Y) was triggered by [Test service](https://zulip-test.pagerduty.com/services/PIL5CUQ); assigned to [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nfoo\n```"
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "unacknowledged",
      messages: [
        {
          topic: "Incident 3",
          content: "Incident [3](https://zulip-test.pagerduty.com/incidents/P140S4Y) was unacknowledged by [Test service](https://zulip-test.pagerduty.com/services/PIL5CUQ); assigned to [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nfoo\n```"
        }
      ]
    }
  ],
  [
    6,
    {
      kind: "messages",
      eventType: "resolved",
      messages: [
        {
          topic: "Incident 1",
          content: "Incident [1](https://zulip-test.pagerduty.com/incidents/PO1XIJ5) was resolved by [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nIt is on fire\n```"
        }
      ]
    }
  ],
  [
    10,
    {
      kind: "messages",
      eventType: "assigned",
      messages: [
        {
          topic: "Incident 1",
          content: "Incident [1](https://zulip-test.pagerduty.com/incidents/PO1XIJ5) was assigned to [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nIt is on fire\n```"
        },
        {
          topic: "Incident 1",
          content: "Incident [1](https://zulip-test.pagerduty.com/incidents/PO1XIJ5) was acknowledged by [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n```quote\nIt is on fire\n```"
        }
      ]
    }
  ],
  [
    12,
    {
      kind: "messages",
      eventType: "acknowledged",
      messages: [
        {
          topic: "Incident Test Incident (#10)",
          content: "Incident [Test Incident (#10)](https://pig208.pagerduty.com/incidents/PQ1K5C8) was acknowledged by [PIG 208](https://pig208.pagerduty.com/users/PJ0LVEB)."
        }
      ]
    }
  ],
  [
    15,
    {
      kind: "messages",
      eventType: "reassigned",
      messages: [
        {
          topic: "Incident Test Incident (#3)",
          content: "Incident [Test Incident (#3)](https://pig208.pagerduty.com/incidents/PIQUG8X) was reassigned to [Test User](https://pig208.pagerduty.com/users/PI9DT01)."
        }
      ]
    }
  ]
];

describeFixtures("pagerduty", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
