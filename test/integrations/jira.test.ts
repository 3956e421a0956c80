import { describe, expect, it } from "vitest";
import { jiraIntegration, jiraMarkupToMarkdown } from "../../shared/integrations/jira.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = jiraIntegration.handle;

describeFixtures("jira", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(jiraIntegration, fixtures)).toMatchFileSnapshot("./expected/jira.md");
  });

  it("reports an assignment from the changelog under KEY: summary", () => {
    expect(handle(fixtureRequest(fixtures[28]!))).toEqual({
      kind: "messages",
      eventType: "jira:issue_updated",
      messages: [
        {
          topic: "BUG-15: New bug with hook",
          content:
            "Leo Franchi updated [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15) (assignee: **Leo Franchi**):\n\n" +
            "* assignee set to **Leo Franchi**",
        },
      ],
    });
  });

  it("ignores sprint events", () => {
    expect(handle(fixtureRequest(fixtures[8]!))).toEqual({ kind: "ignored", eventType: "sprint_closed" });
  });

  it("reads a transition without webhookEvent as an issue update", () => {
    const result = handle(fixtureRequest(fixtures[32]!));
    expect(result.kind === "messages" && result.eventType).toBe("jira:issue_updated");
    expect(result.kind === "messages" && result.messages[0]!.content.endsWith("* status changed from **To Do** to **In Progress**")).toBe(true);
  });
});

describe("jira markup and refusals", () => {
  it("converts Jira markup to Markdown", () => {
    expect(jiraMarkupToMarkdown("*bold* {{code}} [Zulip|https://zulip.com] [~lfranchi]")).toBe(
      "**bold** `code` [Zulip](https://zulip.com) **lfranchi**",
    );
    expect(jiraMarkupToMarkdown("{quote}said{quote}")).toBe("~~~ quote\nsaid\n~~~");
  });

  it("does not support unknown events and refuses a payload with no event", () => {
    expect(handle(webhookRequest({ webhookEvent: "board_created" }))).toEqual({
      kind: "unsupported",
      eventType: "board_created",
    });
    expect(() => handle(webhookRequest({ issue: {} }))).toThrow(
      new WebhookPayloadError("Anomalous webhook payload: no webhookEvent"),
    );
  });

  it("refuses a comment event without its comment", () => {
    expect(() => handle(webhookRequest({ webhookEvent: "comment_created", issue: { key: "A-1" } }))).toThrow(
      new WebhookPayloadError('payload["comment"] is missing'),
    );
  });
});
