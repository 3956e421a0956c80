import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { splunkIntegration } from "../../shared/integrations/splunk.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = splunkIntegration.handle;

describeFixtures("splunk", (fixtures) => {
  it("reports a saved-search alert, topic the search name (JSON posted as a form)", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "sudo",
          content:
            "Splunk alert from a saved search:\n" +
            "* **Search**: [sudo](http://example.com:8000/app/search/search?q=%7Cloadjob%20rt_scheduler__admin__search__sudo_at_1483557185_2.2%20%7C%20head%201%20%7C%20tail%201&earliest=0&latest=now)\n" +
            "* **Host**: myserver\n" +
            "* **Source**: `/var/log/auth.log`\n" +
            "* **Raw**: `Jan  4 11:14:32 myserver sudo: pam_unix(sudo:session): session closed for user root`",
        },
      ],
    });
  });

  it("says which field is missing instead of refusing", () => {
    const result = handle(fixtureRequest(fixtures[4]!));
    expect(result.kind === "messages" && result.messages[0]!.topic).toBe("Missing search_name");
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(splunkIntegration, fixtures)).toMatchFileSnapshot("./expected/splunk.md");
  });
});

it("splunk: an empty object still yields a message naming every missing field", () => {
  expect(handle(jsonWebhookRequest({}))).toEqual({
    kind: "messages",
    eventType: null,
    messages: [
      {
        topic: "Missing search_name",
        content:
          "Splunk alert from a saved search:\n* **Search**: Missing search_name (Missing results_link)\n" +
          "* **Host**: Missing host\n* **Source**: `Missing source`\n* **Raw**: `Missing _raw`",
      },
    ],
  });
});

it("splunk: a search name of the wrong type is refused", () => {
  expect(() => handle(jsonWebhookRequest({ search_name: 3 }))).toThrow(
    new WebhookPayloadError('payload["search_name"] is not a string'),
  );
});
