import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonableError } from "../errors.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "./json-depth.js";
import { param, parseParams } from "./params.js";

const nested = (depth: number, open = "[", close = "]") => open.repeat(depth) + close.repeat(depth);

describe("jsonDepthExceeds", () => {
  it("counts nested lists and objects, not brackets inside strings", () => {
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[[1]]}}', 3)).toBe(true);
    expect(jsonDepthExceeds(`["${"[".repeat(100)}"]`, 1)).toBe(false);
    expect(jsonDepthExceeds(`["\\"${"[".repeat(10)}"]`, 1)).toBe(false);
  });
});

describe("parseParams: JSON depth", () => {
  const specs = { field_data: param.json(z.unknown()).optional(), to: param.jsonOrString(z.unknown()).optional() };

  it("decodes JSON nested MAX_JSON_DEPTH levels deep", () => {
    const raw = new Map([["field_data", nested(MAX_JSON_DEPTH, '{"a":', "}").replace(/\{"a":\}/, '{"a":1}')]]);
    expect(() => parseParams(raw, specs)).not.toThrow();
  });

  it("refuses a JSON parameter nested deeper with Zulip's invalid-JSON error", () => {
    // Prepare
    const raw = new Map([["field_data", nested(5000, '{"a":', "}").replace(/\{"a":\}/, "1")]]);
    // Act
    let error: unknown;
    try {
      parseParams(raw, specs);
    } catch (err) {
      error = err;
    }
    // Assess
    expect(error).toBeInstanceOf(JsonableError);
    expect((error as JsonableError).message).toBe('Argument "field_data" is not valid JSON.');
    expect((error as JsonableError).httpStatus).toBe(400);
  });

  it("reads an over-deep JSON-or-string parameter as the string it was sent as", () => {
    const deep = nested(MAX_JSON_DEPTH + 1);
    expect(parseParams(new Map([["to", deep]]), specs).to).toBe(deep);
  });
});
