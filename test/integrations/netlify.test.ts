import { expect, it } from "vitest";
import { netlifyIntegration } from "../../shared/integrations/netlify.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = netlifyIntegration.handle;
const build = "[objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com)";

describeFixtures("netlify", (fixtures) => {
  it("reports a building deploy with its state, topic the branch", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "deploy_building",
      messages: [{ topic: "master", content: `The build ${build} of branch master is building.` }],
    });
  });

  it("reports a failed deploy with its error", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: "deploy_failed",
      messages: [
        {
          topic: "master",
          content: `The build ${build} of branch master failed: failed during stage 'building site': Build script returned non-zero exit code: 127`,
        },
      ],
    });
  });

  it("reports a locked deploy", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "deploy_locked",
      messages: [{ topic: "master", content: `The build ${build} of branch master is locked.` }],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(netlifyIntegration, fixtures)).toMatchFileSnapshot("./expected/netlify.md");
  });
});

it("netlify: an unknown event header is unsupported", () => {
  expect(handle(jsonWebhookRequest({}, { "x-netlify-event": "submission_created" }))).toEqual({
    kind: "unsupported",
    eventType: "submission_created",
  });
});

it("netlify: a request without the event header is refused", () => {
  expect(() => handle(jsonWebhookRequest({ branch: "main" }))).toThrow(
    new WebhookPayloadError("Missing the HTTP event header 'X-Netlify-Event'"),
  );
});

it("netlify: a deploy without a branch names the field", () => {
  expect(() => handle(jsonWebhookRequest({ name: "n" }, { "x-netlify-event": "deploy_created" }))).toThrow(
    new WebhookPayloadError('payload["branch"] is missing'),
  );
});
