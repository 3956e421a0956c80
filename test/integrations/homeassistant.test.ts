import { expect, it } from "vitest";
import { homeassistantIntegration } from "../../shared/integrations/homeassistant.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = homeassistantIntegration.handle;

describeFixtures("homeassistant", (fixtures) => {
  it("posts the notification as is under the default topic", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [{ topic: "homeassistant", content: "The sun will be shining today!" }],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(homeassistantIntegration, fixtures)).toMatchFileSnapshot(
      "./expected/homeassistant.md",
    );
  });
});

it("homeassistant: a topic in the payload names the topic", () => {
  expect(handle(jsonWebhookRequest({ message: "Door open", topic: "Front door" }))).toEqual({
    kind: "messages",
    eventType: null,
    messages: [{ topic: "Front door", content: "Door open" }],
  });
});

it("homeassistant: a payload without a message names the field", () => {
  expect(() => handle(jsonWebhookRequest({ topic: "t" }))).toThrow(new WebhookPayloadError('payload["message"] is missing'));
});
