import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { zabbixIntegration } from "../../shared/integrations/zabbix.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderFixtureResults } from "./fixture-snapshot.js";

const handle = zabbixIntegration.handle;

describeFixtures("zabbix", (fixtures) => {
  it("reports a trigger alert, topic the host name", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "www.example.com",
          content:
            "**PROBLEM** (Average) on [www.example.com](https://zabbix.example.com/tr_events.php?triggerid=14032&eventid=10528):\n" +
            "* Zabbix agent on www.example.com is unreachable for 5 minutes\n" +
            "* Agent ping is Up (1)",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(zabbixIntegration, fixtures)).toMatchFileSnapshot("./expected/zabbix.md");
  });
});

it("zabbix: a payload without a link names the field", () => {
  const body = JSON.stringify({ hostname: "h", severity: "High", status: "OK", item: "i", trigger: "t" });
  expect(() => handle({ headers: {}, query: {}, body, contentType: "application/json" })).toThrow(
    new WebhookPayloadError('payload["link"] is missing'),
  );
});

it("zabbix: a body that is not JSON is refused", () => {
  expect(() => handle({ headers: {}, query: {}, body: "hostname=h", contentType: "text/plain" })).toThrow(
    new WebhookPayloadError("Malformed JSON"),
  );
});
