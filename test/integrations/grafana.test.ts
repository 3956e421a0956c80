import { describe, expect, it } from "vitest";
import { grafanaIntegration } from "../../shared/integrations/grafana.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = grafanaIntegration.handle;

describeFixtures("grafana", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(grafanaIntegration, fixtures)).toMatchFileSnapshot("./expected/grafana.md");
  });

  it("reports a legacy alert (form-labelled JSON) under its title, with metrics and the image", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "alerting",
      messages: [
        {
          topic: "[Alerting] Test notification",
          content:
            ":alert: [Test rule](http://localhost:3000/): **alerting**\n\n" +
            "Someone is testing the alert notification within grafana.\n\n" +
            "* High value: 100\n* Higher Value: 200\n\n" +
            "[Panel snapshot](https://grafana.com/assets/img/blog/mixed_styles.png)",
        },
      ],
    });
  });

  it("reports each unified alert under [alertname] with times, labels, values, annotations and links", () => {
    const result = handle(fixtureRequest(fixtures[6]!));
    expect(result).toEqual({
      kind: "messages",
      eventType: "resolved",
      messages: [
        {
          topic: "[TestAlert]",
          content:
            ":checkbox: **TestAlert** is resolved at <time:2022-08-31T10:30:00.52288431Z> " +
            "(firing since <time:2022-08-31T05:54:04.52289368Z>).\n" +
            "**Labels:** alertname = TestAlert, instance = Grafana\n" +
            "**Values:** `[ metric='foo' labels={instance=bar} value=10 ]`\n\n" +
            "**Annotations:**\n- summary: Notification test\n\n" +
            "[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)",
        },
      ],
    });
  });

  it("names an unnamed unified alert by its fingerprint", () => {
    const result = handle(fixtureRequest(fixtures[9]!));
    expect(result.kind === "messages" && result.messages.map((m) => m.topic)).toEqual(["[e6349a25f5ef0e9e]"]);
  });
});

describe("grafana refusals", () => {
  it("refuses a legacy payload without a title and an unknown state", () => {
    const legacy = { state: "alerting", ruleName: "r", ruleUrl: "http://g/" };
    expect(() => handle(webhookRequest(legacy))).toThrow(new WebhookPayloadError('payload["title"] is missing'));
    expect(() => handle(webhookRequest({ ...legacy, title: "t", state: "exploded" }))).toThrow(
      new WebhookPayloadError('payload["state"] is not a known alert state'),
    );
  });

  it("refuses a unified alert without labels", () => {
    const alert = { status: "firing", startsAt: "2024-01-01T00:00:00Z", endsAt: "0001-01-01T00:00:00Z" };
    expect(() => handle(webhookRequest({ alerts: [alert] }))).toThrow(
      new WebhookPayloadError('payload["alerts"][0]["labels"] is missing'),
    );
  });
});
