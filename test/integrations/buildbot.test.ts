import { describe, expect, it } from "vitest";
import { buildbotIntegration } from "../../shared/integrations/buildbot.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = buildbotIntegration.handle;

describeFixtures("buildbot", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(buildbotIntegration, fixtures)).toMatchFileSnapshot("./expected/buildbot.md");
  });

  it("reports a started build under its project", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "new",
      messages: [
        { topic: "buildbot-hello", content: "**runtests** build [#33](http://exampleurl.com/#builders/1/builds/33) started." },
      ],
    });
  });

  it("reports a finished build of no project under general, with its result", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: "finished",
      messages: [
        { topic: "general", content: "**runtests** build [#34](http://exampleurl.com/#builders/1/builds/34) finished with result **failure**." },
      ],
    });
  });
});

describe("buildbot unsupported events and refusals", () => {
  const build = { buildid: 1, url: "http://b/1", buildername: "t", project: "p" };

  it("does not support other events", () => {
    expect(handle(webhookRequest({ ...build, event: "step" }))).toEqual({ kind: "unsupported", eventType: "step" });
  });

  it("refuses a finished build without or with an unknown result", () => {
    expect(() => handle(webhookRequest({ ...build, event: "finished" }))).toThrow(
      new WebhookPayloadError('payload["results"] is missing'),
    );
    expect(() => handle(webhookRequest({ ...build, event: "finished", results: 9 }))).toThrow(
      new WebhookPayloadError('payload["results"] is not a Buildbot result code'),
    );
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "new",
      messages: [
        {
          topic: "buildbot-hello",
          content: "**runtests** build [#33](http://exampleurl.com/#builders/1/builds/33) started."
        }
      ]
    }
  ],
  [
    1,
    {
      kind: "messages",
      eventType: "finished",
      messages: [
        {
          topic: "buildbot-hello",
          content: "**runtests** build [#33](http://exampleurl.com/#builders/1/builds/33) finished with result **success**."
        }
      ]
    }
  ]
];

describeFixtures("buildbot", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
