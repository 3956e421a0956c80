import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { sonarqubeIntegration } from "../../shared/integrations/sonarqube.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = sonarqubeIntegration.handle;
const url = "http://localhost:9000/dashboard?id=test-sonar";

describeFixtures("sonarqube", (fixtures) => {
  it("reports a passed gate on a branch, topic project / branch", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        { topic: "test-sonar / master", content: `Project [test-sonar](${url}) analysis of branch master resulted in success.` },
      ],
    });
  });

  it("lists the failed conditions of a failed gate without a branch", () => {
    expect(handle(fixtureRequest(fixtures[4]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "test-sonar",
          content:
            `Project [test-sonar](${url}) analysis resulted in error:\n` +
            "* coverage: **error** 0.0 should be greater than or equal to 80.\n" +
            "* duplicated lines density: **error** 89.39828080229226 should be less than or equal to 3.",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(sonarqubeIntegration, fixtures)).toMatchFileSnapshot("./expected/sonarqube.md");
  });
});

it("sonarqube: a payload without a quality gate names the field", () => {
  expect(() => handle(jsonWebhookRequest({ project: { name: "p", url: "u" } }))).toThrow(
    new WebhookPayloadError('payload["qualityGate"] is missing'),
  );
});
