import { describe, expect, it } from "vitest";
import { alertmanagerIntegration } from "../../shared/integrations/alertmanager.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = alertmanagerIntegration.handle;

describeFixtures("alertmanager", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(alertmanagerIntegration, fixtures)).toMatchFileSnapshot("./expected/alertmanager.md");
  });

  it("groups two firing alerts of one host into one list message, topic from the `name` field", () => {
    const graph =
      "http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0";
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "andromeda",
          content:
            `:alert: **Firing**:\n* CPU core temperature is 34.75C ([graph](${graph}))\n` +
            `* CPU core temperature is 17.625C ([graph](${graph}))`,
        },
      ],
    });
  });

  it("reports a single resolved alert on one line", () => {
    const result = handle(fixtureRequest(fixtures[1]!));
    expect(result.kind === "messages" && result.messages.map((m) => m.content.split(" (")[0])).toEqual([
      ":squared_ok: **Resolved**: CPU core temperature is 34.75C",
    ]);
  });
});

describe("alertmanager defaults and refusals", () => {
  const alert = (over: Record<string, unknown>) => ({
    status: "firing",
    labels: { alertname: "Disk full", instance: "db1" },
    annotations: {},
    generatorURL: "http://prom/graph?tab=1",
    ...over,
  });

  it("uses `instance` for the topic and `alertname` for the line by default, one message per status", () => {
    const result = handle(webhookRequest({ alerts: [alert({}), alert({ status: "resolved" })] }));
    expect(result).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        { topic: "db1", content: ":alert: **Firing**: Disk full ([graph](http://prom/graph?tab=0))" },
        { topic: "db1", content: ":squared_ok: **Resolved**: Disk full ([graph](http://prom/graph?tab=0))" },
      ],
    });
  });

  it("names the topic (unknown) and says which field is missing", () => {
    const result = handle(webhookRequest({ alerts: [alert({ labels: {} })] }));
    expect(result).toEqual({
      kind: "messages",
      eventType: null,
      messages: [{ topic: "(unknown)", content: ":alert: **Firing**: (no alertname field) ([graph](http://prom/graph?tab=0))" }],
    });
  });

  it("refuses a payload without alerts or an alert without its graph URL", () => {
    expect(() => handle(webhookRequest({ status: "firing" }))).toThrow(new WebhookPayloadError('payload["alerts"] is missing'));
    expect(() => handle(webhookRequest({ alerts: [alert({ generatorURL: undefined })] }))).toThrow(
      new WebhookPayloadError('payload["alerts"][0]["generatorURL"] is missing'),
    );
  });

  it("refuses an unknown alert status and a body that is not JSON", () => {
    expect(() => handle(webhookRequest({ alerts: [alert({ status: "odd" })] }))).toThrow(WebhookPayloadError);
    expect(() => handle(webhookRequest("not json"))).toThrow(new WebhookPayloadError("Malformed JSON"));
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "andromeda",
          content: ":alert: **Firing**:\n* CPU core temperature is 34.75C ([graph](http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0))\n* CPU core temperature is 17.625C ([graph](http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0))"
        }
      ]
    }
  ]
];

describeFixtures("alertmanager", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
