import { describe, expect, it } from "vitest";
import { applyPage, emptyList, firstPageParams } from "./messages.js";
import { nearMessageId, parseHash, viewMarksRead, type View } from "./narrow.js";
import { streamMessage } from "./test-fixtures.js";

/** A link to a message: `#narrow/channel/…/topic/…/near/<id>` opens the conversation around it. */
describe("near", () => {
  const view = parseHash("#narrow/channel/1-general/topic/lunch/near/42");

  it("reads the message ID of a near term", () => {
    expect(nearMessageId(view)).toBe(42);
    expect(nearMessageId(parseHash("#narrow/channel/1-general"))).toBeUndefined();
    expect(nearMessageId({ kind: "feed" })).toBeUndefined();
  });

  it("fetches the first page around that message, on both sides", () => {
    const params = firstPageParams(emptyList(view), viewMarksRead(view));
    expect(params).toMatchObject({ anchor: 42, num_before: 50, num_after: 50 });
    // The anchor, not a filter: the server's narrow is the conversation's.
    expect(params.narrow).toEqual([
      { operator: "channel", operand: 1 },
      { operator: "topic", operand: "lunch" },
    ]);
  });

  it("opens the view at that message even when it is read", () => {
    const list = applyPage(
      emptyList(view),
      { messages: [40, 41, 42, 43].map((id) => streamMessage(id, { flags: id === 43 ? [] : ["read"] })), found_oldest: true, found_newest: true },
      "first",
    );
    expect(list.anchorId).toBe(42);
  });

  it("marks read as the conversation itself does", () => {
    expect(viewMarksRead(view)).toBe(true);
    const search: View = parseHash("#narrow/search/lunch/near/42");
    expect(viewMarksRead(search)).toBe(false);
  });
});
