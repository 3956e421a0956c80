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

const PASSED_4601 = "**Build [#4601](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257)** **passed** :thumbs_up: for commit: [Debug+build+hooks](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31) by josh_mandel.";

describeFixtures("travis", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(travisIntegration, fixtures)).toMatchFileSnapshot("./expected/travis.md");
  });

  it("reports a passed push build (form payload) under the topic builds", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "push",
      messages: [{ topic: "builds", content: PASSED_4601 }],
    });
  });
});

describe("travis options and refusals", () => {
  it("skips a pull-request build unless ignore_pull_requests=false, then posts it under builds", () => {
    expect(handle(webhookRequest(build))).toEqual({ kind: "ignored", eventType: "pull_request" });
    expect(handle(webhookRequest(build, {}, { ignore_pull_requests: "true" }))).toEqual({ kind: "ignored", eventType: "pull_request" });
    expect(handle(webhookRequest(build, {}, { ignore_pull_requests: "false" }))).toEqual({
      kind: "messages",
      eventType: "pull_request",
      messages: [
        {
          topic: "builds",
          content: "**Build [#12](https://travis-ci.org/o/r/builds/1)** is **broken** :thumbs_down: for commit: [Fix the thing](https://github.com/o/r/pull/7) by ada.",
        },
      ],
    });
  });

  it("refuses an unknown status and a missing build URL", () => {
    const posted = { ...build, type: "push" };
    expect(() => handle(webhookRequest({ ...posted, status_message: "Exploded" }))).toThrow(
      new WebhookPayloadError('payload["status_message"] is not a known build status'),
    );
    const { build_url: _unused, ...noUrl } = posted;
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
      messages: [{ topic: "builds", content: PASSED_4601 }],
    },
  ],
  // A pull-request build without `ignore_pull_requests=false`: skipped by default.
  [1, { kind: "ignored", eventType: "pull_request" }],
  [2, { kind: "messages", eventType: "pull_request", messages: [{ topic: "builds", content: PASSED_4601 }] }],
];

describeFixtures("travis", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
