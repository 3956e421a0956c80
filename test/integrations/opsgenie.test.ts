import { describe, expect, it } from "vitest";
import { opsgenieIntegration } from "../../shared/integrations/opsgenie.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = opsgenieIntegration.handle;

describeFixtures("opsgenie", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(opsgenieIntegration, fixtures)).toMatchFileSnapshot("./expected/opsgenie.md");
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

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "Acknowledge",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: Acknowledge\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    1,
    {
      kind: "messages",
      eventType: "AddNote",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: AddNote\n* **Note**: note to test alert\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    2,
    {
      kind: "messages",
      eventType: "AddRecipient",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: AddRecipient\n* **Recipient**: team2_escalation\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    3,
    {
      kind: "messages",
      eventType: "AddTags",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: AddTags\n* **Tags added**: tag1,tag2,tag3\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`, `tag3`"
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "AddTeam",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: AddTeam\n* **Team added**: team2\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    5,
    {
      kind: "messages",
      eventType: "AssignOwnership",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: AssignOwnership\n* **Owner**: user2@ifountain.com\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    6,
    {
      kind: "messages",
      eventType: "Close",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: Close\n* **Message**: test alert"
        }
      ]
    }
  ],
  [
    7,
    {
      kind: "messages",
      eventType: "Create",
      messages: [
        {
          topic: "Webhook",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/ec03dad6-62c8-4c94-b38b-d88f398e900f) from Webhook:\n* **Action**: Create\n* **Message**: another alert\n* **Tags**: `vip`"
        }
      ]
    }
  ],
  [
    8,
    {
      kind: "messages",
      eventType: "TestAction",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: TestAction\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    9,
    {
      kind: "messages",
      eventType: "Delete",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: Delete\n* **Message**: test alert"
        }
      ]
    }
  ],
  [
    10,
    {
      kind: "messages",
      eventType: "Escalate",
      messages: [
        {
          topic: "Webhook_Test",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/7ba97e3a-d328-4b5e-8f9a-39e945a3869a) from Webhook_Test:\n* **Action**: Escalate\n* **Escalation**: test_esc"
        }
      ]
    }
  ],
  [
    11,
    {
      kind: "messages",
      eventType: "RemoveTags",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: RemoveTags\n* **Tags removed**: tag3\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    12,
    {
      kind: "messages",
      eventType: "TakeOwnership",
      messages: [
        {
          topic: "Webhook",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/8a745a79-3ed3-4044-8427-98e067c0623c) from Webhook:\n* **Action**: TakeOwnership\n* **Message**: message test\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ],
  [
    13,
    {
      kind: "messages",
      eventType: "UnAcknowledge",
      messages: [
        {
          topic: "Integration1",
          content: "[Opsgenie alert](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c) from Integration1:\n* **Action**: UnAcknowledge\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`"
        }
      ]
    }
  ]
];

describeFixtures("opsgenie", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
