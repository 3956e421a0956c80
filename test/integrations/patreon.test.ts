import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { patreonIntegration } from "../../shared/integrations/patreon.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = patreonIntegration.handle;
const topic = "membership notifications";

describeFixtures("patreon", (fixtures) => {
  it("reports a new member", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "members:create",
      messages: [{ topic, content: "Kopi has joined as a member!" }],
    });
  });

  it("reports a membership change with the new status", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "members:update",
      messages: [{ topic, content: "Kopi's membership has been updated to active patron." }],
    });
  });

  it("reports a new pledge with its amount, period and the patron count", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "members:pledge:create",
      messages: [{ topic, content: "Kopi has pledged $5.00 per month. :tada:\nTotal number of patrons: 5" }],
    });
  });

  it("reports a cancelled pledge", () => {
    expect(handle(fixtureRequest(fixtures[5]!))).toEqual({
      kind: "messages",
      eventType: "members:pledge:delete",
      messages: [{ topic, content: "Kopi's pledge has been cancelled. :cross_mark:\nTotal number of patrons: 4" }],
    });
  });

  it("ignores the deprecated pledges events", () => {
    expect(handle(fixtureRequest(fixtures[6]!))).toEqual({ kind: "ignored", eventType: "pledges:create" });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(patreonIntegration, fixtures)).toMatchFileSnapshot("./expected/patreon.md");
  });
});

const member = (attributes: object) => ({
  data: {
    attributes: {
      full_name: "Ann",
      last_charge_status: null,
      patron_status: null,
      currently_entitled_amount_cents: 0,
      ...attributes,
    },
  },
  included: [{ attributes: { patron_count: 3, pay_per_name: "month" } }],
});

it("patreon: a pledge whose charge failed is ignored", () => {
  const body = member({ last_charge_status: "Declined", currently_entitled_amount_cents: 500 });
  expect(handle(jsonWebhookRequest(body, { "x-patreon-event": "members:pledge:create" }))).toEqual({
    kind: "ignored",
    eventType: "members:pledge:create",
  });
});

it("patreon: an unknown event header is unsupported", () => {
  expect(handle(jsonWebhookRequest({}, { "x-patreon-event": "posts:publish" }))).toEqual({
    kind: "unsupported",
    eventType: "posts:publish",
  });
});

it("patreon: a request without the event header is refused", () => {
  expect(() => handle(jsonWebhookRequest(member({})))).toThrow(
    new WebhookPayloadError("Missing the HTTP event header 'X-Patreon-Event'"),
  );
});

it("patreon: a member without a name names the field", () => {
  expect(() => handle(jsonWebhookRequest({ data: { attributes: {} } }, { "x-patreon-event": "members:create" }))).toThrow(
    new WebhookPayloadError('payload["data"]["attributes"]["full_name"] is missing'),
  );
});
