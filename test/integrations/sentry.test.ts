import { describe, expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { sentryIntegration } from "../../shared/integrations/sentry.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = sentryIntegration.handle;

describeFixtures("sentry", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(sentryIntegration, fixtures)).toMatchFileSnapshot("./expected/sentry.md");
  });

  it("reports a captured message under the event title", () => {
    expect(handle(fixtureRequest(fixtures[8]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "A test message event from golang.",
          content:
            "**Message captured:** [A test message event from golang.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638844654/events/01ecb45633bc4f5ca940ada671124c8f/)\n" +
            "```quote\n**Level:** info\n**Time:** <time:2020-04-30T06:14:13.611851Z>\n```",
        },
      ],
    });
  });

  it("reports an assignment to a team, by whom", () => {
    expect(handle(fixtureRequest(fixtures[12]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "Exception: program has entered an invalid state.",
          content: "**Hemanth V. Alluri** assigned issue **Exception: program has entered an invalid state.** to **team lone-wolf**.",
        },
      ],
    });
  });

  it("reports a legacy plugin alert without an event ID under the project name", () => {
    const result = handle(fixtureRequest(fixtures[17]!));
    expect(result.kind === "messages" && result.messages[0]!.topic).toBe("zulip");
  });

  it("reads a plugin alert with an event ID as an event, linking the event page", () => {
    const result = handle(fixtureRequest(fixtures[5]!));
    expect(result.kind === "messages" && result.messages[0]!.content.split("\n")[0]).toBe(
      "**Exception captured:** [ValueError: new sentry error.](https://sentry.io/organizations/bar-foundation/issues/1972208801/events/c916dccfd58e41dcabaebef0091f0736/)",
    );
  });
});

describe("sentry unsupported events and refusals", () => {
  const event = { platform: "python", version: "6", title: "Boom", level: "error", datetime: "2024-01-01T00:00:00Z", web_url: "https://s/e/1/", logentry: {} };

  it("does not support Raven SDK events, events of no known kind, or unknown issue actions", () => {
    expect(handle(webhookRequest({ data: { event } }))).toEqual({ kind: "unsupported", eventType: "Raven SDK" });
    const { logentry: _unused, ...bare } = { ...event, version: "7" };
    expect(handle(webhookRequest({ data: { event: bare } }))).toEqual({ kind: "unsupported", eventType: "unknown-event type" });
    const issue = { title: "T", lastSeen: "2024-01-01T00:00:00Z", assignedTo: null, level: "error" };
    expect(handle(webhookRequest({ action: "archived", actor: { name: "A" }, data: { issue } }))).toEqual({
      kind: "unsupported",
      eventType: "unknown-issue-action type",
    });
    expect(handle(webhookRequest({ action: "x", data: { metric_alert: {} } }))).toEqual({
      kind: "unsupported",
      eventType: '["metric_alert"]',
    });
  });

  it("refuses an event without a title and an issue without an actor", () => {
    const { title: _unused, ...untitled } = event;
    expect(() => handle(webhookRequest({ data: { event: untitled } }))).toThrow(
      new WebhookPayloadError('payload["data"]["event"]["title"] is missing'),
    );
    const issue = { title: "T", lastSeen: "2024-01-01T00:00:00Z", assignedTo: null };
    expect(() => handle(webhookRequest({ action: "resolved", data: { issue } }))).toThrow(
      new WebhookPayloadError('payload["actor"] is missing'),
    );
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "*url.Error: Get \"bad_url\": unsupported protocol scheme \"\"",
          content: "**Exception captured:** [*url.Error: Get \"bad_url\": unsupported protocol scheme \"\"](https://sentry.io/organizations/hypro999-personal-organization/issues/1637164584/events/80777a9cc30e4d0eb8904333d5c298b0/)\n```quote\n**Level:** error\n**Time:** <time:2020-04-29T11:23:45.978469Z>\n**File:** trigger-exception.go\n```\nTraceback:\n```go\n         // Set the timeout to the maximum duration the program can afford to wait.\n         defer sentry.Flush(2 * time.Second)\n\n         resp, err := http.Get(os.Args[1])\n         if err != nil {\n--->         sentry.CaptureException(err)\n             log.Printf(\"reported to Sentry: %s\", err)\n             return\n         }\n         defer resp.Body.Close()\n```"
        }
      ]
    }
  ]
];

describeFixtures("sentry", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
