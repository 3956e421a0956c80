import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { stripeIntegration } from "../../shared/integrations/stripe.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = stripeIntegration.handle;

describeFixtures("stripe", (fixtures) => {
  it("reports a succeeded charge under the customer's id", () => {
    expect(handle(fixtureRequest(fixtures[3]!))).toEqual({
      kind: "messages",
      eventType: "charge.succeeded",
      messages: [
        {
          topic: "cus_00000000000000",
          content:
            "[Charge](https://dashboard.stripe.com/charges/ch_000000000000000000000000) for 1.00 AUD succeeded",
        },
      ],
    });
  });

  it("reports a dispute with its status", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: "charge.dispute.created",
      messages: [
        {
          topic: "disputes",
          content: "[Dispute](https://dashboard.stripe.com/disputes/dp_00000000000000) created. Status: needs response.",
        },
      ],
    });
  });

  it("reports a new subscription with its plan, quantity and billing method", () => {
    expect(handle(fixtureRequest(fixtures[8]!))).toEqual({
      kind: "messages",
      eventType: "customer.subscription.created",
      messages: [
        {
          topic: "cus_00000000000000",
          content:
            "[Subscription](https://dashboard.stripe.com/subscriptions/sub_E6STM5w5EX3K28) created\n" +
            "Plan: [flatrate](https://dashboard.stripe.com/plans/plan_E6SQ6RAtmLVtzg)\n" +
            "Quantity: 800\nBilling method: send invoice",
        },
      ],
    });
  });

  it("lists a customer's changed attributes", () => {
    expect(handle(fixtureRequest(fixtures[12]!))).toEqual({
      kind: "messages",
      eventType: "customer.updated",
      messages: [
        {
          topic: "cus_00000000000000",
          content: "[Customer](https://dashboard.stripe.com/customers/cus_00000000000000) updated\n* Account balance is now 100",
        },
      ],
    });
  });

  it("says an invoice is paid when an update settles it", () => {
    expect(handle(fixtureRequest(fixtures[17]!))).toEqual({
      kind: "messages",
      eventType: "invoice.updated",
      messages: [
        {
          topic: "cus_FDmrSwQt9Fck5M",
          content: "[Invoice](https://dashboard.stripe.com/invoices/in_1EjLINHuGUuNWDDZjDf2WNqd) is now paid",
        },
      ],
    });
  });

  it("ignores an account update that carries no changed attributes", () => {
    expect(handle(fixtureRequest(fixtures[20]!))).toEqual({ kind: "ignored", eventType: "account.updated" });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(stripeIntegration, fixtures)).toMatchFileSnapshot("./expected/stripe.md");
  });
});

it("stripe: a category Zulip does not implement is ignored", () => {
  expect(handle(jsonWebhookRequest({ type: "payout.paid", data: { object: {} } }))).toEqual({
    kind: "ignored",
    eventType: "payout.paid",
  });
});

it("stripe: an unknown event type is unsupported", () => {
  expect(handle(jsonWebhookRequest({ type: "radar.early_fraud_warning.created", data: { object: {} } }))).toEqual({
    kind: "unsupported",
    eventType: "radar.early_fraud_warning.created",
  });
});

it("stripe: a trial ending is counted in days from the event's time", () => {
  const body = {
    type: "customer.subscription.trial_will_end",
    created: 1_600_000_000,
    data: { object: { id: "sub_1", customer: "cus_1", trial_end: 1_600_000_000 + 3 * 86_400 } },
  };
  expect(handle(jsonWebhookRequest(body))).toEqual({
    kind: "messages",
    eventType: "customer.subscription.trial_will_end",
    messages: [{ topic: "cus_1", content: "[Subscription](https://dashboard.stripe.com/subscriptions/sub_1) trial will end in 3 days" }],
  });
});

it("stripe: a charge without an amount names the field", () => {
  expect(() => handle(jsonWebhookRequest({ type: "charge.failed", data: { object: { id: "ch_1", currency: "usd" } } }))).toThrow(
    new WebhookPayloadError('payload["data"]["object"]["amount"] is missing'),
  );
});
