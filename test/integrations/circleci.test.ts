import { describe, expect, it } from "vitest";
import { circleciIntegration } from "../../shared/integrations/circleci.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = circleciIntegration.handle;

describeFixtures("circleci", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(circleciIntegration, fixtures)).toMatchFileSnapshot("./expected/circleci.md");
  });

  it("reports a ping under Test event", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "ping",
      messages: [{ topic: "Test event", content: "Test event of webhook 'Testing' received." }],
    });
  });

  it("reports a completed workflow with its Bitbucket commit, under the project name", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "workflow-completed",
      messages: [
        {
          topic: "circleci-webhook-testing",
          content:
            "Workflow [`sample`](https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/4/workflows/fd29ef0c-3e39-4c8f-b1d5-d8be1bab8165) of pipeline #4 succeeded.\n" +
            "Commit [`8ab595d2de9: app.py edited online with Bitbucket`](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/8ab595d2de95767993472837df2cb7884519a92b) on `master` by Hari Prashant Bhimaraju.",
        },
      ],
    });
  });
});

describe("circleci unsupported events and refusals", () => {
  it("does not support other event types", () => {
    expect(handle(webhookRequest({ type: "pipeline-started" }))).toEqual({ kind: "unsupported", eventType: "pipeline-started" });
  });

  it("refuses a payload without a type and a job event without its job", () => {
    expect(() => handle(webhookRequest({}))).toThrow(new WebhookPayloadError('payload["type"] is missing'));
    const pipeline = { number: 1, vcs: {} };
    expect(() => handle(webhookRequest({ type: "job-completed", pipeline }))).toThrow(
      new WebhookPayloadError('payload["job"] is missing'),
    );
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "ping",
      messages: [
        {
          topic: "Test event",
          content: "Test event of webhook 'Testing' received."
        }
      ]
    }
  ],
  [
    1,
    {
      kind: "messages",
      eventType: "job-completed",
      messages: [
        {
          topic: "circleci-webhook-testing",
          content: "Job `build-and-test` of pipeline #4 succeeded.\nCommit [`8ab595d2de9: app.py edited online with Bitbucket`](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/8ab595d2de95767993472837df2cb7884519a92b) on `master` by Hari Prashant Bhimaraju."
        }
      ]
    }
  ],
  [
    2,
    {
      kind: "messages",
      eventType: "workflow-completed",
      messages: [
        {
          topic: "circleci-webhook-testing",
          content: "Workflow [`sample`](https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/2/workflows/baa45986-84db-47a0-bc6c-89e9fe751bc9) of pipeline #2 succeeded.\nRan on the head of `master`, at [cab5eacb4cc](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/cab5eacb4ccee2710529894425341fa20a48fe6a)."
        }
      ]
    }
  ]
];

describeFixtures("circleci", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
