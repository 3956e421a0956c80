import { expect, it } from "vitest";
import { harborIntegration } from "../../shared/integrations/harbor.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = harborIntegration.handle;

describeFixtures("harbor", (fixtures) => {
  it("reports a pushed image with its operator, topic the repository", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "PUSH_ARTIFACT",
      messages: [{ topic: "example/test", content: "**admin** pushed image `example/test:latest`" }],
    });
  });

  it("ignores a deleted artifact", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({ kind: "ignored", eventType: "DELETE_ARTIFACT" });
  });

  it("reports a completed scan with counts by severity", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: "SCANNING_COMPLETED",
      messages: [
        {
          topic: "test/alpine/helm",
          content:
            "Scan of `test/alpine/helm:3.8.1` completed. Vulnerabilities found, by severity:\n\n* High: **4**\n* Unknown: **1**",
        },
      ],
    });
  });

  it("names an untagged artifact by its digest", () => {
    const result = handle(fixtureRequest(fixtures[4]!));
    expect(result.kind === "messages" && result.messages[0]!.content).toContain(
      "`test/alpine/helm@sha256:b50334049354ed01330403212605dce2f4676a4e787ed113506861d9cf3c5424`",
    );
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(harborIntegration, fixtures)).toMatchFileSnapshot("./expected/harbor.md");
  });
});

const repository = { repo_full_name: "a/b" };

it("harbor: an unknown event type is unsupported", () => {
  const body = { type: "REPLICATION", operator: "x", event_data: { repository, resources: [{ tag: "t" }] } };
  expect(handle(jsonWebhookRequest(body))).toEqual({ kind: "unsupported", eventType: "REPLICATION" });
});

it("harbor: a scan in another report format is unsupported", () => {
  const body = {
    type: "SCANNING_COMPLETED",
    operator: "auto",
    event_data: { repository, resources: [{ tag: "t", scan_overview: { "other/format": {} } }] },
  };
  expect(handle(jsonWebhookRequest(body))).toEqual({
    kind: "unsupported",
    eventType: "Unsupported harbor scanning webhook payload",
  });
});

it("harbor: a push without resources names what is missing", () => {
  const body = { type: "PUSH_ARTIFACT", operator: "x", event_data: { repository, resources: [] } };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(
    new WebhookPayloadError('payload["event_data"]["resources"][0] is missing'),
  );
});
