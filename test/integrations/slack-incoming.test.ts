import { describe, expect, it } from "vitest";
import { slackMrkdwnToMarkdown } from "../../shared/integrations/format.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { slackIncomingIntegration } from "../../shared/integrations/slack-incoming.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = slackIncomingIntegration.handle;

describeFixtures("slack_incoming", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(slackIncomingIntegration, fixtures)).toMatchFileSnapshot(
      "./expected/slack_incoming.md",
    );
  });

  it("posts plain text under (no topic)", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [{ topic: "(no topic)", content: "Hello, world." }],
    });
  });

  it("reads a form `payload=` body: the channel is the topic, the emoji leads the text", () => {
    expect(handle(fixtureRequest(fixtures[7]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [{ topic: "devops", content: ":zap: chris has started deploying project tag v0.0.2rc10 to staging" }],
    });
  });

  it("ignores a payload with null text and nothing else", () => {
    expect(handle(fixtureRequest(fixtures[6]!))).toEqual({ kind: "ignored", eventType: null });
  });

  it("renders an attachment: linked title, pretext, text, image, footer and time", () => {
    expect(handle(fixtureRequest(fixtures[21]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "(no topic)",
          content:
            "## Sample title.\n\nSample pretext.\n\nSample text.\n\n" +
            "[](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)\n\n" +
            "Sample footer.\n\n<time:2022-06-23T00:48:26+00:00>",
        },
      ],
    });
  });
});

describe("slack mrkdwn conversion", () => {
  it("converts emphasis at word edges only", () => {
    expect(slackMrkdwnToMarkdown("some *foo* word")).toBe("some **foo** word");
    expect(slackMrkdwnToMarkdown("*foo* *bar*")).toBe("**foo** **bar**");
    expect(slackMrkdwnToMarkdown("*foo*a*bar*")).toBe("*foo*a*bar*");
    expect(slackMrkdwnToMarkdown("some _foo_ word, ~gone~.")).toBe("some *foo* word, ~~gone~~.");
    expect(slackMrkdwnToMarkdown("snake_case_name")).toBe("snake_case_name");
  });

  it("converts links, wildcard mentions and Slack user and channel references", () => {
    expect(slackMrkdwnToMarkdown("see <https://x.org/a|the docs> or <https://x.org/b>")).toBe(
      "see [the docs](https://x.org/a) or https://x.org/b",
    );
    expect(slackMrkdwnToMarkdown("<!channel> <!here> <!everyone>")).toBe("@**all** @**all** @**all**");
    expect(slackMrkdwnToMarkdown("hi <@U123ABC|bob> in <#C99|general>")).toBe(
      "hi @**Slack user U123ABC** in #**Slack channel C99**",
    );
  });
});

describe("slack_incoming refusals", () => {
  it("refuses a form body without a payload field", () => {
    const request = { ...webhookRequest("text=hello"), contentType: "application/x-www-form-urlencoded" };
    expect(() => handle(request)).toThrow(new WebhookPayloadError("Missing 'payload' argument"));
  });

  it("refuses an unknown block type and a section text of an unknown type", () => {
    expect(() => handle(webhookRequest({ blocks: [{ type: "carousel" }] }))).toThrow(
      new WebhookPayloadError('payload["blocks"][0]["type"] is not a known block type'),
    );
    expect(() => handle(webhookRequest({ blocks: [{ type: "section", text: { type: "html", text: "x" } }] }))).toThrow(
      new WebhookPayloadError('payload["blocks"][0]["text"]["type"] is not plain_text or mrkdwn'),
    );
  });

  it("refuses a channel that is not a string", () => {
    expect(() => handle(webhookRequest({ channel: 5, text: "x" }))).toThrow(
      new WebhookPayloadError('payload["channel"] is not a string'),
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
          topic: "(no topic)",
          content: "Hello, world."
        }
      ]
    }
  ],
  [
    6,
    {
      kind: "ignored",
      eventType: null
    }
  ]
];

describeFixtures("slack_incoming", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
