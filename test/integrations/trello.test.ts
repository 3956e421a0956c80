import { describe, expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { trelloIntegration } from "../../shared/integrations/trello.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { renderWebhookResults, webhookRequest } from "./render-webhook-results.js";

const handle = trelloIntegration.handle;

describeFixtures("trello", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderWebhookResults(trelloIntegration, fixtures)).toMatchFileSnapshot("./expected/trello.md");
  });

  it("reports a card moved between lists under the board name", () => {
    expect(handle(fixtureRequest(fixtures[0]!))).toEqual({
      kind: "messages",
      eventType: "updateCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek moved card [This is a card.](https://trello.com/c/r33ylX2Z) from list **Basics** to **Intermediate**.",
        },
      ],
    });
  });

  it("reports a board renamed", () => {
    const result = handle(fixtureRequest(fixtures[20]!));
    expect(result.kind === "messages" && result.messages[0]!.content).toBe(
      'TomaszKolek renamed board "Welcome Board" to [New name](https://trello.com/b/iqXXzYEj).',
    );
  });

  it("ignores card moves within a list and board backgrounds", () => {
    expect(handle(fixtureRequest(fixtures[21]!))).toEqual({ kind: "ignored", eventType: "updateCard" });
    expect(handle(fixtureRequest(fixtures[22]!))).toEqual({ kind: "ignored", eventType: "updateBoard" });
  });
});

describe("trello unsupported actions and refusals", () => {
  const board = { name: "B", shortLink: "b1" };

  it("does not support unknown actions or card updates", () => {
    expect(handle(webhookRequest({ action: { type: "enablePlugin", data: { board } } }))).toEqual({
      kind: "unsupported",
      eventType: "enablePlugin",
    });
    const data = { board, card: { name: "C", shortLink: "c1" }, old: { idLabels: [] } };
    expect(handle(webhookRequest({ action: { type: "updateCard", data } }))).toEqual({
      kind: "unsupported",
      eventType: "updateCard",
    });
  });

  it("refuses an action without its type or a card action without the card", () => {
    expect(() => handle(webhookRequest({ action: {} }))).toThrow(new WebhookPayloadError('payload["action"]["type"] is missing'));
    expect(() => handle(webhookRequest({ action: { type: "createCard", data: { board } } }))).toThrow(
      new WebhookPayloadError('payload["action"]["data"]["card"] is missing'),
    );
  });
});
