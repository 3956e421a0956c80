import { describe, expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { travisIntegration } from "../../shared/integrations/travis.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = travisIntegration.handle;

const build = {
  type: "pull_request",
  status_message: "Broken",
  number: "12",
  build_url: "https://travis-ci.org/o/r/builds/1",
  compare_url: "https://github.com/o/r/pull/7",
  message: "Fix the thing\n\nLonger text",
  author_name: "ada",
  branch: "main",
  repository: { name: "r" },
  pull_request_number: 7,
  pull_request_title: "Fix it",
};

describeFixtures("travis", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(travisIntegration, fixtures)).toMatchFileSnapshot("./expected/travis.md");
  });

  it("reports a passed push build (form payload) under repo / branch", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "push",
      messages: [
        {
          topic: "fhir-svn / master",
          content:
            "Build [#4601](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257) of josh_mandel's commit " +
            "[Debug+build+hooks](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31): **passed** :thumbs_up:",
        },
      ],
    });
  });
});

describe("travis options and refusals", () => {
  it("names a pull-request build's topic after the PR, and skips it when asked to", () => {
    expect(handle(webhookRequest(build))).toEqual({
      kind: "messages",
      eventType: "pull_request",
      messages: [
        {
          topic: "r / PR #7 Fix it",
          content:
            "Build [#12](https://travis-ci.org/o/r/builds/1) of ada's commit " +
            "[Fix the thing](https://github.com/o/r/pull/7): **broken** :thumbs_down:",
        },
      ],
    });
    expect(handle(webhookRequest(build, {}, { ignore_pull_requests: "true" }))).toEqual({
      kind: "ignored",
      eventType: "pull_request",
    });
  });

  it("refuses an unknown status and a missing build URL", () => {
    expect(() => handle(webhookRequest({ ...build, status_message: "Exploded" }))).toThrow(
      new WebhookPayloadError('payload["status_message"] is not a known build status'),
    );
    const { build_url: _unused, ...noUrl } = build;
    expect(() => handle(webhookRequest(noUrl))).toThrow(new WebhookPayloadError('payload["build_url"] is missing'));
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "push",
      messages: [
        {
          topic: "fhir-svn / master",
          content: "Build [#4601](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257) of josh_mandel's commit [Debug+build+hooks](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31): **passed** :thumbs_up:"
        }
      ]
    }
  ],
  [
    1,
    {
      kind: "messages",
      eventType: "pull_request",
      messages: [
        {
          topic: "fhir-svn / master",
          content: "Build [#4601](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257) of josh_mandel's commit [Debug+build+hooks](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31): **passed** :thumbs_up:"
        }
      ]
    }
  ]
];

describeFixtures("travis", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
