import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { radarrIntegration } from "../../shared/integrations/radarr.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = radarrIntegration.handle;

describeFixtures("radarr", (fixtures) => {
  it("reports an application update under its fixed topic", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "ApplicationUpdate",
      messages: [
        { topic: "Radarr - Application update", content: "Radarr was updated from 4.2.0.6370 to 4.2.0.6372." },
      ],
    });
  });

  it("reports an upgraded movie with both qualities, topic the movie", () => {
    expect(handle(fixtureRequest(fixtures[6]!))).toEqual({
      kind: "messages",
      eventType: "Download",
      messages: [{ topic: "Greenland", content: "The movie Greenland has been upgraded from WEBRip-720p to WEBRip-1080p." }],
    });
  });

  it("reports a deleted movie file with its quality and reason", () => {
    expect(handle(fixtureRequest(fixtures[9]!))).toEqual({
      kind: "messages",
      eventType: "MovieFileDelete",
      messages: [
        {
          topic: "Marley & Me",
          content: "A Bluray-1080p file of the movie **Marley & Me** was deleted because it is missing from disk.",
        },
      ],
    });
  });

  it("reports a deleted movie and whether its files went too", () => {
    expect(handle(fixtureRequest(fixtures[8]!))).toEqual({
      kind: "messages",
      eventType: "MovieDelete",
      messages: [
        {
          topic: "Batman v Superman: Dawn of Justice",
          content: "The movie Batman v Superman: Dawn of Justice was deleted; its files were also deleted.",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(radarrIntegration, fixtures)).toMatchFileSnapshot("./expected/radarr.md");
  });
});

it("radarr: an unknown event type is unsupported", () => {
  expect(handle(jsonWebhookRequest({ eventType: "MovieFileRename", movie: { title: "x" } }))).toEqual({
    kind: "unsupported",
    eventType: "MovieFileRename",
  });
});

it("radarr: an unknown file-deletion reason is refused", () => {
  const body = { eventType: "MovieFileDelete", movie: { title: "x" }, movieFile: { quality: "q" }, deleteReason: "why" };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(
    new WebhookPayloadError('payload["deleteReason"] is not an allowed value'),
  );
});

it("radarr: a health check without a level names the field", () => {
  expect(() => handle(jsonWebhookRequest({ eventType: "Health", message: "m" }))).toThrow(
    new WebhookPayloadError('payload["level"] is missing'),
  );
});
