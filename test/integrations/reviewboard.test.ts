import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { reviewboardIntegration } from "../../shared/integrations/reviewboard.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = reviewboardIntegration.handle;

describeFixtures("reviewboard", (fixtures) => {
  it("reports a published review request with its details, topic the repository", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "review_request_published",
      messages: [
        {
          topic: "Scheduler",
          content:
            "**eeshangarg** opened [#2: Initial commit](https://rbcommons.com/s/zulip/r/2/):\n" +
            "``` quote\n**Description**: Initial commit\n**Status**: pending\n" +
            "**Target people**: **drsbgarg**, **johndoe**, and **janedoe**\n**Branch**: master\n```",
        },
      ],
    });
  });

  it("reports a closed review request with how it was closed", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "review_request_closed",
      messages: [
        {
          topic: "Scheduler",
          content:
            "**eeshangarg** closed [#1: Initial commit (first iteration)](https://rbcommons.com/s/zulip/r/1/):\n" +
            "``` quote\n**Description**: Initial commit (first iteration)\n**Status**: submitted\n" +
            "**Target people**: **drsbgarg**\n**Close type**: submitted\n**Branch**: master\n```",
        },
      ],
    });
  });

  it("reports a review with its text quoted", () => {
    expect(handle(fixtureRequest(fixtures[4]!))).toEqual({
      kind: "messages",
      eventType: "review_published",
      messages: [
        {
          topic: "Scheduler",
          content:
            "**eeshangarg** [reviewed](https://rbcommons.com/s/zulip/r/1/#review651728) " +
            "[#1: Initial commit (first iteration)](https://rbcommons.com/s/zulip/r/1/):\n\n" +
            "**Review**:\n``` quote\nLeft some minor comments, thanks!\n```",
        },
      ],
    });
  });

  it("reports a reply without an empty quote", () => {
    expect(handle(fixtureRequest(fixtures[5]!))).toEqual({
      kind: "messages",
      eventType: "reply_published",
      messages: [
        {
          topic: "Scheduler",
          content:
            "**drsbgarg** [replied](https://rbcommons.com/s/zulip/api/review-requests/1/reviews/651728/replies/651732/) " +
            "to [#1: Initial commit (first iteration)](https://rbcommons.com/s/zulip/r/1/).",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(reviewboardIntegration, fixtures)).toMatchFileSnapshot("./expected/reviewboard.md");
  });
});

it("reviewboard: an unknown event header is unsupported", () => {
  expect(handle(jsonWebhookRequest({}, { "x-reviewboard-event": "review_request_updated" }))).toEqual({
    kind: "unsupported",
    eventType: "review_request_updated",
  });
});

it("reviewboard: a request without the event header is refused", () => {
  expect(() => handle(jsonWebhookRequest({}))).toThrow(
    new WebhookPayloadError("Missing the HTTP event header 'X-ReviewBoard-Event'"),
  );
});

it("reviewboard: a review without its review request names the field", () => {
  const body = { review: { links: { user: { title: "a" } }, absolute_url: "u", body_top: "t" } };
  expect(() => handle(jsonWebhookRequest(body, { "x-reviewboard-event": "review_published" }))).toThrow(
    new WebhookPayloadError('payload["review_request"] is missing'),
  );
});
