import { describe, expect, it } from "vitest";
import { linearIntegration } from "../../shared/integrations/linear.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = linearIntegration.handle;

describeFixtures("linear", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(linearIntegration, fixtures)).toMatchFileSnapshot("./expected/linear.md");
  });

  it("reports a created issue with priority and status under Issue: <title>", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "issue",
      messages: [
        {
          topic: "Issue: Drop-down overflow in the select menu.",
          content:
            "Created issue [#42 Drop-down overflow in the select menu.](https://linear.app/webhooks/issue/WEB-42/drop-down-overflow-in-the-select-menu) " +
            "(team Webhooks).\n**Priority:** High · **Status:** Todo",
        },
      ],
    });
  });

  it("reports a removed comment by its author", () => {
    const result = handle(fixtureRequest(fixtures[5]!));
    expect(result.kind === "messages" && [result.eventType, result.messages[0]!.content]).toEqual([
      "comment",
      "Satyam Bansal removed a comment.",
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
