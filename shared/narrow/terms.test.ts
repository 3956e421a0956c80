import { describe, expect, it } from "vitest";
import { BadNarrowOperatorError, parseNarrow } from "./terms.js";

describe("parseNarrow", () => {
  it("reads objects and legacy pairs, mapping aliases to canonical operators", () => {
    expect(
      parseNarrow([
        { operator: "channel", operand: "Denmark" },
        ["topic", "lunch"],
        { operator: "pm-with", operand: [1, 2], negated: true },
        { operator: "id", operand: "12" },
      ]),
    ).toEqual([
      { operator: "stream", operand: "Denmark", negated: false },
      { operator: "topic", operand: "lunch", negated: false },
      { operator: "dm", operand: [1, 2], negated: true },
      { operator: "id", operand: 12, negated: false },
    ]);
    expect(parseNarrow([["is", "private"], { operator: "channels", operand: "public", negated: true }])).toEqual([
      { operator: "is", operand: "dm", negated: false },
      { operator: "streams", operand: "public", negated: true },
    ]);
  });

  it("refuses unknown operators and operands with BAD_NARROW", () => {
    const bad = (narrow: unknown[]) => {
      try {
        parseNarrow(narrow);
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const e = bad([{ operator: "colour", operand: "red" }]) as BadNarrowOperatorError;
    expect(e).toBeInstanceOf(BadNarrowOperatorError);
    expect(e.toEnvelope()).toEqual({
      result: "error",
      msg: "Invalid narrow operator: unknown operator colour",
      code: "BAD_NARROW",
      desc: "unknown operator colour",
    });
    expect((bad([["is", "sparkly"]]) as Error).message).toBe("Invalid narrow operator: unknown 'is' operand sparkly");
    expect((bad([["has", "cats"]]) as Error).message).toBe("Invalid narrow operator: unknown 'has' operand cats");
    expect((bad([["streams", "all"]]) as Error).message).toBe("Invalid narrow operator: unknown channels operand all");
    expect((bad([["id", "x"]]) as Error).message).toBe("Invalid narrow operator: Invalid message ID");
  });

  it("refuses a narrow that is both a stream and a DM narrow", () => {
    expect(() => parseNarrow([["stream", "a"], ["is", "dm"]])).toThrow(
      "Invalid narrow operator: No message can be both a channel message and direct message",
    );
  });

  it("validates operand types and shapes", () => {
    expect(() => parseNarrow("stream")).toThrow("narrow is not a list");
    expect(() => parseNarrow([{ operator: "topic", operand: 5 }])).toThrow("operand is not a string");
    expect(() => parseNarrow([{ operator: "dm", operand: { a: 1 } }])).toThrow("operand is not a string or integer list");
    expect(() => parseNarrow([{ operator: "search", operand: "  " }])).toThrow("operand cannot be blank");
    expect(() => parseNarrow([{ operator: "stream" }])).toThrow("operand is missing");
    expect(() => parseNarrow([["stream"]])).toThrow("element is not a string pair");
  });
});
