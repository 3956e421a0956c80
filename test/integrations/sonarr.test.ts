import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { sonarrIntegration } from "../../shared/integrations/sonarr.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = sonarrIntegration.handle;

describeFixtures("sonarr", (fixtures) => {
  it("confirms the set-up on a test event", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "Test",
      messages: [{ topic: "Sonarr - Test", content: "Sonarr webhook has been successfully configured." }],
    });
  });

  it("reports a health check under its level", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "Health",
      messages: [
        {
          topic: "Health error",
          content: "No indexers available with RSS sync enabled, Sonarr will not grab new releases automatically.",
        },
      ],
    });
  });

  it("reports an upgraded episode with both qualities, topic the series", () => {
    expect(handle(fixtureRequest(fixtures[6]!))).toEqual({
      kind: "messages",
      eventType: "Download",
      messages: [{ topic: "NCIS", content: "NCIS - 18x10 - Watchdog has been upgraded from SDTV to HDTV-720p." }],
    });
  });

  it("reports an episode file deleted for an upgrade", () => {
    expect(handle(fixtureRequest(fixtures[9]!))).toEqual({
      kind: "messages",
      eventType: "EpisodeFileDelete",
      messages: [
        { topic: "S.W.A.T. (2017)", content: "S.W.A.T. (2017) - 4x10 - Buried has been deleted due to quality upgrade." },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(sonarrIntegration, fixtures)).toMatchFileSnapshot("./expected/sonarr.md");
  });
});

it("sonarr: an unknown event type is unsupported", () => {
  expect(handle(jsonWebhookRequest({ eventType: "ApplicationUpdate", series: { title: "x" } }))).toEqual({
    kind: "unsupported",
    eventType: "ApplicationUpdate",
  });
});

it("sonarr: a download without isUpgrade is unsupported", () => {
  expect(handle(jsonWebhookRequest({ eventType: "Download", series: { title: "x" } }))).toEqual({
    kind: "unsupported",
    eventType: "Download",
  });
});

it("sonarr: a grab without episodes names what is missing", () => {
  expect(() => handle(jsonWebhookRequest({ eventType: "Grab", series: { title: "x" }, episodes: [] }))).toThrow(
    new WebhookPayloadError('payload["episodes"][0] is missing'),
  );
});

it("sonarr: a payload without eventType names the field", () => {
  expect(() => handle(jsonWebhookRequest({ series: { title: "x" } }))).toThrow(
    new WebhookPayloadError('payload["eventType"] is missing'),
  );
});
