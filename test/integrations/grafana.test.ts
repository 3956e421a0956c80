import { describe, expect, it } from "vitest";
import { grafanaIntegration } from "../../shared/integrations/grafana.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = grafanaIntegration.handle;

describeFixtures("grafana", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(grafanaIntegration, fixtures)).toMatchFileSnapshot("./expected/grafana.md");
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

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "alerting",
      messages: [
        {
          topic: "[Alerting] Test notification",
          content: ":alert: [Test rule](http://localhost:3000/): **alerting**\n\nSomeone is testing the alert notification within grafana.\n\n* High value: 100\n* Higher Value: 200\n\n[Panel snapshot](https://grafana.com/assets/img/blog/mixed_styles.png)"
        }
      ]
    }
  ],
  [
    3,
    {
      kind: "messages",
      eventType: "ok",
      messages: [
        {
          topic: "[Ok] Test notification",
          content: ":squared_ok: [Test rule](http://localhost:3000/): **ok**\n\nSomeone is testing the alert notification within grafana.\n\n* High value: 0\n\n[Panel snapshot](https://grafana.com/assets/img/blog/mixed_styles.png)"
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "paused",
      messages: [
        {
          topic: "[Paused] Test notification",
          content: ":info: [Test rule](http://localhost:3000/): **paused**\n\nSomeone is testing the alert notification within grafana.\n\n[Panel snapshot](https://grafana.com/assets/img/blog/mixed_styles.png)"
        }
      ]
    }
  ],
  [
    5,
    {
      kind: "messages",
      eventType: "pending",
      messages: [
        {
          topic: "[Pending] Test notification",
          content: ":info: [Test rule](http://localhost:3000/): **pending**\n\nSomeone is testing the alert notification within grafana.\n\n* High value: 100\n* Higher Value: 200\n\n[Panel snapshot](https://grafana.com/assets/img/blog/mixed_styles.png)"
        }
      ]
    }
  ],
  [
    6,
    {
      kind: "messages",
      eventType: "resolved",
      messages: [
        {
          topic: "[TestAlert]",
          content: ":checkbox: **TestAlert** is resolved at <time:2022-08-31T10:30:00.52288431Z> (firing since <time:2022-08-31T05:54:04.52289368Z>).\n**Labels:** alertname = TestAlert, instance = Grafana\n**Values:** `[ metric='foo' labels={instance=bar} value=10 ]`\n\n**Annotations:**\n- summary: Notification test\n\n[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)"
        }
      ]
    }
  ],
  [
    7,
    {
      kind: "messages",
      eventType: "firing",
      messages: [
        {
          topic: "[High memory usage]",
          content: ":alert: **High memory usage** is firing since <time:2021-10-12T09:51:03.157076+02:00>.\n**Labels:** alertname = High memory usage, team = blue, zone = us-1\n**Values:** `[ metric='' labels={} value=14151.331895396988 ]`\n\n**Annotations:**\n- description: The system has high memory usage\n- runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone us-1\n\n[Generator](https://play.grafana.org/alerting/1afz29v7z/edit) · [Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1)"
        },
        {
          topic: "[High CPU usage]",
          content: ":alert: **High CPU usage** is firing since <time:2021-10-12T09:56:03.157076+02:00>.\n**Labels:** alertname = High CPU usage, team = blue, zone = eu-1\n**Values:** `[ metric='' labels={} value=47043.702386305304 ]`\n\n**Annotations:**\n- description: The system has high CPU usage\n- runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone eu-1\n\n[Generator](https://play.grafana.org/alerting/d1rdpdv7k/edit) · [Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1)"
        }
      ]
    }
  ]
];

describeFixtures("grafana", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
