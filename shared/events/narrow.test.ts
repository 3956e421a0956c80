import { describe, expect, it } from "vitest";
import { checkEventNarrow, eventMatchesNarrow } from "./narrow.js";

const streamMsg = { type: "stream", display_recipient: "Design", subject: "Logo ideas", sender_email: "A@x.com" };
const dm = { type: "private", display_recipient: [], subject: "", sender_email: "b@x.com" };

describe("checkEventNarrow", () => {
  it("accepts pairs and operator/operand objects", () => {
    expect(checkEventNarrow([["stream", "design"], { operator: "is", operand: "dm" }])).toEqual([
      ["stream", "design"],
      ["is", "dm"],
    ]);
  });

  it("refuses what Zulip refuses, with its messages", () => {
    expect(() => checkEventNarrow([["search", "x"]])).toThrow("Operator search not supported.");
    expect(() => checkEventNarrow([["is", "followed"]])).toThrow("Operand followed not supported.");
    expect(() => checkEventNarrow([["stream"]])).toThrow("Invalid narrow[0]");
    expect(() => checkEventNarrow([["topic", "a"], 5])).toThrow("Invalid narrow[1]");
    expect(() => checkEventNarrow([{ operator: "stream", operand: "a", negated: true }])).toThrow("Invalid narrow[0]");
  });
});

describe("eventMatchesNarrow", () => {
  it("matches everything with an empty narrow", () => {
    expect(eventMatchesNarrow([], dm, [])).toBe(true);
  });

  it("compares stream names and senders case-insensitively", () => {
    expect(eventMatchesNarrow([["stream", "design"]], streamMsg, [])).toBe(true);
    expect(eventMatchesNarrow([["channel", "other"]], streamMsg, [])).toBe(false);
    expect(eventMatchesNarrow([["stream", "design"]], dm, [])).toBe(false);
    expect(eventMatchesNarrow([["sender", "a@X.com"]], streamMsg, [])).toBe(true);
  });

  it("matches a topic exactly or one of its words, exact-topic only exactly", () => {
    expect(eventMatchesNarrow([["topic", "logo ideas"]], streamMsg, [])).toBe(true);
    expect(eventMatchesNarrow([["topic", "logo"]], streamMsg, [])).toBe(true);
    expect(eventMatchesNarrow([["topic", "log"]], streamMsg, [])).toBe(false);
    expect(eventMatchesNarrow([["exact-topic", "Logo ideas"]], streamMsg, [])).toBe(true);
    expect(eventMatchesNarrow([["exact-topic", "logo ideas"]], streamMsg, [])).toBe(false);
  });

  it("reads the recipient's flags for is: operands", () => {
    expect(eventMatchesNarrow([["is", "private"]], dm, [])).toBe(true);
    expect(eventMatchesNarrow([["is", "dm"]], streamMsg, [])).toBe(false);
    expect(eventMatchesNarrow([["is", "starred"]], streamMsg, ["starred"])).toBe(true);
    expect(eventMatchesNarrow([["is", "mentioned"]], streamMsg, ["read"])).toBe(false);
    expect(eventMatchesNarrow([["is", "unread"]], streamMsg, ["read"])).toBe(false);
    expect(eventMatchesNarrow([["is", "unread"]], streamMsg, [])).toBe(true);
  });

  it("requires every term", () => {
    expect(eventMatchesNarrow([["stream", "design"], ["topic", "other"]], streamMsg, [])).toBe(false);
  });
});
