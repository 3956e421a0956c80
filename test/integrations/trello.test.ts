import { describe, expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { trelloIntegration } from "../../shared/integrations/trello.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = trelloIntegration.handle;

describeFixtures("trello", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(trelloIntegration, fixtures)).toMatchFileSnapshot("./expected/trello.md");
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

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: "updateCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek moved card [This is a card.](https://trello.com/c/r33ylX2Z) from list **Basics** to **Intermediate**."
        }
      ]
    }
  ],
  [
    2,
    {
      kind: "messages",
      eventType: "addLabelToCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek added the green label \"text value\" to card [Card name](https://trello.com/c/r33ylX2Z)."
        }
      ]
    }
  ],
  [
    3,
    {
      kind: "messages",
      eventType: "removeLabelFromCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek removed the green label \"text value\" from card [New Card](https://trello.com/c/r33ylX2Z)."
        }
      ]
    }
  ],
  [
    4,
    {
      kind: "messages",
      eventType: "addMemberToCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek added TomaszKolek to card [Card name](https://trello.com/c/9BduUcVQ)."
        }
      ]
    }
  ],
  [
    5,
    {
      kind: "messages",
      eventType: "removeMemberFromCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek removed Trello from card [Card name](https://trello.com/c/9BduUcVQ)."
        }
      ]
    }
  ],
  [
    11,
    {
      kind: "messages",
      eventType: "createCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek created card [New card](https://trello.com/c/5qrgGdD5)."
        }
      ]
    }
  ],
  [
    12,
    {
      kind: "messages",
      eventType: "addAttachmentToCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek attached [attachment_name](http://url.com) to card [New card](https://trello.com/c/xPKXoSTQ)."
        }
      ]
    }
  ],
  [
    13,
    {
      kind: "messages",
      eventType: "addChecklistToCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek added checklist **Checklist** to card [New card](https://trello.com/c/xPKXoSTQ)."
        }
      ]
    }
  ],
  [
    14,
    {
      kind: "messages",
      eventType: "updateCheckItemStateOnCard",
      messages: [
        {
          topic: "Zulip",
          content: "Eeshan Garg checked **Tomatoes** in checklist **Checklist** of card [Something something](https://trello.com/c/R2thJK3P)."
        }
      ]
    }
  ],
  [
    16,
    {
      kind: "messages",
      eventType: "removeMemberFromBoard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek removed Trello from board [Welcome Board](https://trello.com/b/iqXXzYEj)."
        }
      ]
    }
  ],
  [
    17,
    {
      kind: "messages",
      eventType: "addMemberToBoard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek added Trello to board [Welcome Board](https://trello.com/b/iqXXzYEj)."
        }
      ]
    }
  ],
  [
    18,
    {
      kind: "messages",
      eventType: "createList",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek created list **New list** on board [Welcome Board](https://trello.com/b/iqXXzYEj)."
        }
      ]
    }
  ],
  [
    19,
    {
      kind: "messages",
      eventType: "commentCard",
      messages: [
        {
          topic: "Welcome Board",
          content: "TomaszKolek commented on card [New card](https://trello.com/c/xPKXoSTQ):\n~~~ quote\nNew comment\n~~~"
        }
      ]
    }
  ],
  [
    20,
    {
      kind: "messages",
      eventType: "updateBoard",
      messages: [
        {
          topic: "New name",
          content: "TomaszKolek renamed board \"Welcome Board\" to [New name](https://trello.com/b/iqXXzYEj)."
        }
      ]
    }
  ],
  [
    21,
    {
      kind: "ignored",
      eventType: "updateCard"
    }
  ],
  [
    22,
    {
      kind: "ignored",
      eventType: "updateBoard"
    }
  ],
  [
    23,
    {
      kind: "ignored",
      eventType: "copyCard"
    }
  ],
  [
    24,
    {
      kind: "ignored",
      eventType: "createCheckItem"
    }
  ],
  [
    25,
    {
      kind: "ignored",
      eventType: "updateCheckItem"
    }
  ],
  [
    26,
    {
      kind: "ignored",
      eventType: "updateList"
    }
  ]
];

describeFixtures("trello", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
