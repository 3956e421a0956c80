import { describe, expect, it } from "vitest";
import { checkEventNarrow, matchesNarrow } from "./narrow.js";

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

describe("matchesNarrow", () => {
  it("matches everything with an empty narrow", () => {
    expect(matchesNarrow([], dm, [])).toBe(true);
  });

  it("compares stream names and senders case-insensitively", () => {
    expect(matchesNarrow([["stream", "design"]], streamMsg, [])).toBe(true);
    expect(matchesNarrow([["channel", "other"]], streamMsg, [])).toBe(false);
    expect(matchesNarrow([["stream", "design"]], dm, [])).toBe(false);
    expect(matchesNarrow([["sender", "a@X.com"]], streamMsg, [])).toBe(true);
  });

  it("matches a topic exactly or one of its words, exact-topic only exactly", () => {
    expect(matchesNarrow([["topic", "logo ideas"]], streamMsg, [])).toBe(true);
    expect(matchesNarrow([["topic", "logo"]], streamMsg, [])).toBe(true);
    expect(matchesNarrow([["topic", "log"]], streamMsg, [])).toBe(false);
    expect(matchesNarrow([["exact-topic", "Logo ideas"]], streamMsg, [])).toBe(true);
    expect(matchesNarrow([["exact-topic", "logo ideas"]], streamMsg, [])).toBe(false);
  });

  it("reads the recipient's flags for is: operands", () => {
    expect(matchesNarrow([["is", "private"]], dm, [])).toBe(true);
    expect(matchesNarrow([["is", "dm"]], streamMsg, [])).toBe(false);
    expect(matchesNarrow([["is", "starred"]], streamMsg, ["starred"])).toBe(true);
    expect(matchesNarrow([["is", "mentioned"]], streamMsg, ["read"])).toBe(false);
    expect(matchesNarrow([["is", "unread"]], streamMsg, ["read"])).toBe(false);
    expect(matchesNarrow([["is", "unread"]], streamMsg, [])).toBe(true);
  });

  it("requires every term", () => {
    expect(matchesNarrow([["stream", "design"], ["topic", "other"]], streamMsg, [])).toBe(false);
  });
});
