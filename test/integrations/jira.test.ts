import { describe, expect, it } from "vitest";
import { jiraIntegration, jiraMarkupToMarkdown } from "../../shared/integrations/jira.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = jiraIntegration.handle;

describeFixtures("jira", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(jiraIntegration, fixtures)).toMatchFileSnapshot("./expected/jira.md");
  });

  it("reports an assignment from the changelog under KEY: summary", () => {
    expect(handle(fixtureRequest(fixtures[28]!))).toEqual({
      kind: "messages",
      eventType: "jira:issue_updated",
      messages: [
        {
          topic: "BUG-15: New bug with hook",
          content:
            "Leo Franchi updated [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15) (assigned to Leo Franchi):\n\n" +
            "* Changed assignee to Leo Franchi",
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
    expect(result.kind === "messages" && result.messages[0]!.content.endsWith("* Changed status from **To Do** to **In Progress**")).toBe(true);
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

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "jira:issue_created",
      messages: [
        {
          topic: "BUG-15: New bug with hook",
          content: "Leo Franchi created [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15) with major priority."
        }
      ]
    }
  ],
  [
    3,
    {
      kind: "ignored",
      eventType: "attachment_created"
    }
  ],
  [
    4,
    {
      kind: "ignored",
      eventType: "issuelink_created"
    }
  ],
  [
    5,
    {
      kind: "ignored",
      eventType: "issuelink_deleted"
    }
  ],
  [
    6,
    {
      kind: "ignored",
      eventType: "jira:version_released"
    }
  ],
  [
    7,
    {
      kind: "ignored",
      eventType: "jira:worklog_updated"
    }
  ],
  [
    8,
    {
      kind: "ignored",
      eventType: "sprint_closed"
    }
  ],
  [
    9,
    {
      kind: "ignored",
      eventType: "sprint_started"
    }
  ],
  [
    10,
    {
      kind: "ignored",
      eventType: "worklog_created"
    }
  ],
  [
    11,
    {
      kind: "ignored",
      eventType: "worklog_updated"
    }
  ],
  [
    19,
    {
      kind: "messages",
      eventType: "jira:issue_updated",
      messages: [
        {
          topic: "BUG-15: New bug with hook",
          content: "Leo Franchi commented on [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15) (assigned to Leo Franchi):\n\n``` quote\nAdding a comment. Oh, what a comment it is!\n```"
        }
      ]
    }
  ],
  [
    26,
    {
      kind: "messages",
      eventType: "jira:issue_deleted",
      messages: [
        {
          topic: "BUG-15: New bug with hook",
          content: "Leo Franchi deleted [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15)."
        }
      ]
    }
  ],
  [
    34,
    {
      kind: "messages",
      eventType: "comment_created",
      messages: [
        {
          topic: "SP-1: Add support for newer format Jira issue comment events",
          content: "Hemanth V. Alluri commented on [SP-1: Add support for newer format Jira issue comment events](https://f20171170.atlassian.net/browse/SP-1)\n``` quote\nSounds like it’s pretty important. I’ll get this fixed ASAP!\n```"
        }
      ]
    }
  ],
  [
    36,
    {
      kind: "messages",
      eventType: "comment_updated",
      messages: [
        {
          topic: "SP-1: Add support for newer format Jira issue comment events",
          content: "Hemanth V. Alluri updated their comment on [SP-1: Add support for newer format Jira issue comment events](https://f20171170.atlassian.net/browse/SP-1)\n``` quote\nThis is a very important issue! I’m on it!\n```"
        }
      ]
    }
  ],
  [
    37,
    {
      kind: "messages",
      eventType: "comment_deleted",
      messages: [
        {
          topic: "SP-1: Add support for newer format Jira issue comment events",
          content: "Hemanth V. Alluri deleted their comment on [SP-1: Add support for newer format Jira issue comment events](https://f20171170.atlassian.net/browse/SP-1)\n``` quote\n~~This is a very important issue! I’m on it!~~\n```"
        }
      ]
    }
  ]
];

describeFixtures("jira", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
