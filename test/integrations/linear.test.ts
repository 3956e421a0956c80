import { describe, expect, it } from "vitest";
import { linearIntegration } from "../../shared/integrations/linear.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = linearIntegration.handle;

describeFixtures("linear", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(linearIntegration, fixtures)).toMatchFileSnapshot("./expected/linear.md");
  });

  it("reports a created issue with priority and status under Issue: <title>", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "issue",
      messages: [
        {
          topic: "Issue: Drop-down overflow in the select menu.",
          content:
            "[Issue](https://linear.app/webhooks/issue/WEB-42/drop-down-overflow-in-the-select-menu) was created in team Webhooks.\n" +
            "Priority: High, Status: Todo.",
        },
      ],
    });
  });

  it("reports a removed comment by its author", () => {
    const result = handle(fixtureRequest(fixtures[5]!));
    expect(result.kind === "messages" && [result.eventType, result.messages[0]!.content]).toEqual([
      "comment",
      "Satyam Bansal has removed a comment.",
    ]);
  });

  it("cuts a long title in the topic to 50 characters and says so", () => {
    const result = handle(fixtureRequest(fixtures[3]!));
    expect(result.kind === "messages" && result.messages[0]!.topic).toBe("Issue: This is regarding the outage that we faced during ...");
  });

  it("says a removed sub-issue was removed from its team", () => {
    const result = handle(fixtureRequest(fixtures[9]!));
    expect(result.kind === "messages" && [result.messages[0]!.topic, result.messages[0]!.content]).toEqual([
      "Sub-Issue: Thorough Impact Analysis and Cost Realization",
      "This issue has been removed from team Webhooks.",
    ]);
  });

  it("names a sub-issue's topic after itself", () => {
    const result = handle(fixtureRequest(fixtures[8]!));
    expect(result.kind === "messages" && [result.eventType, result.messages[0]!.topic]).toEqual([
      "sub_issue",
      "Sub-Issue: Impact Analysis",
    ]);
  });
});

describe("linear ignored and unsupported events, refusals", () => {
  it("ignores reactions and labels, does not support unknown types", () => {
    expect(handle(webhookRequest({ type: "Reaction", action: "create" }))).toEqual({ kind: "ignored", eventType: null });
    expect(handle(webhookRequest({ type: "IssueLabel", action: "create" }))).toEqual({ kind: "ignored", eventType: null });
    expect(handle(webhookRequest({ type: "Document", action: "create" }))).toEqual({
      kind: "unsupported",
      eventType: "Document:create",
    });
  });

  it("refuses an issue without a title", () => {
    expect(() => handle(webhookRequest({ type: "Issue", action: "create", data: { number: 1 } }))).toThrow(
      new WebhookPayloadError('payload["data"]["title"] is missing'),
    );
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "issue",
      messages: [
        {
          topic: "Issue: Drop-down overflow in the select menu.",
          content: "[Issue](https://linear.app/webhooks/issue/WEB-42/drop-down-overflow-in-the-select-menu) was created in team Webhooks.\nPriority: High, Status: Todo."
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "comment",
      messages: [
        {
          topic: "Issue: Thorough Impact Analysis and Cost Realization",
          content: "Satyam Bansal [commented](https://linear.app/webhooks/issue/WEB-46#comment-c7cafc52) on issue **Thorough Impact Analysis and Cost Realization**:\n~~~ quote\nPerforming a thorough impact analysis and cost realization is a crucial step in responding to any system outage or incident. By examining the extent of the outage, the affected systems or services, the number of users impacted, and any error messages or logs generated during the incident, we can gain a comprehensive understanding of the scope of the incident.\n\nThis information can then be used to prioritize the resolution efforts and minimize the impact on our organization's operations. Additionally, cost realization allows us to evaluate the financial impact of the outage on our organization and make informed decisions regarding resource allocation for future incidents.\n\nOverall, conducting a thorough impact analysis and cost realization can help us effectively manage incidents and prevent similar issues from occurring in the future.\n~~~"
        }
      ]
    }
  ],
  [
    8,
    {
      kind: "messages",
      eventType: "sub_issue",
      messages: [
        {
          topic: "Sub-Issue: Impact Analysis",
          content: "[Sub-Issue](https://linear.app/webhooks/issue/WEB-46/impact-analysis) was created in team Webhooks:\n~~~ quote\nExamining the extent of the outage, the affected systems or services, the number of users impacted, and any error messages or logs generated during the incident.\n~~~\n\nStatus: Todo."
        }
      ]
    }
  ]
];

describeFixtures("linear", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
