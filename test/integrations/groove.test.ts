import { expect, it } from "vitest";
import { grooveIntegration } from "../../shared/integrations/groove.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = grooveIntegration.handle;
const topic = "notifications";

describeFixtures("groove", (fixtures) => {
  it("reports a new ticket with its summary quoted", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "ticket_started",
      messages: [
        {
          topic,
          content:
            "Test Name opened a new ticket [#9: Test Subject](https://ghostfox.groovehq.com/groove_client/tickets/68659446):\n\n" +
            "``` quote\nThe content of the body goes here.\n```",
        },
      ],
    });
  });

  it("reports an assignment to an agent of a group", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: "ticket_assigned",
      messages: [
        {
          topic,
          content:
            "[#9: Test Subject](https://testteam.groovehq.com/groove_client/tickets/68659446) (open) " +
            "was assigned to agent@example.com (group2).",
        },
      ],
    });
  });

  it("reports a note with its author from the API link", () => {
    expect(handle(fixtureRequest(fixtures[6]!))).toEqual({
      kind: "messages",
      eventType: "note_added",
      messages: [
        {
          topic,
          content:
            "anotheragent@example.com left a note on [ticket #776](https://ghostfox.groovehq.com/groove_client/tickets/68667295):\n\n" +
            "``` quote\nThis is a note added to  a ticket\n```",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(grooveIntegration, fixtures)).toMatchFileSnapshot("./expected/groove.md");
  });
});

it("groove: an assignment to nobody is ignored", () => {
  const body = { state: "opened", assignee: null, assigned_group: null, number: 1, title: "t", app_url: "u" };
  expect(handle(jsonWebhookRequest(body, { "x-groove-event": "ticket_assigned" }))).toEqual({
    kind: "ignored",
    eventType: "ticket_assigned",
  });
});

it("groove: an unknown event header is unsupported", () => {
  expect(handle(jsonWebhookRequest({}, { "x-groove-event": "ticket_tagged" }))).toEqual({
    kind: "unsupported",
    eventType: "ticket_tagged",
  });
});

it("groove: a request without the event header is refused", () => {
  expect(() => handle(jsonWebhookRequest({}))).toThrow(new WebhookPayloadError("Missing the HTTP event header 'X-Groove-Event'"));
});

it("groove: a reply without links names the field", () => {
  expect(() => handle(jsonWebhookRequest({ plain_text_body: "x" }, { "x-groove-event": "agent_replied" }))).toThrow(
    new WebhookPayloadError('payload["links"] is missing'),
  );
});
