import { describe, expect, it } from "vitest";
import { jsonIntegration, jsonFormatterBody } from "./json.js";

describe("jsonFormatterBody", () => {
  it("lays JSON out as Python's json.dumps(indent=2), non-ASCII escaped", () => {
    expect(jsonFormatterBody({ a: [1, { b: null }], c: "é😀\u007f", d: {}, e: [] })).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": "\\u00e9\\ud83d\\ude00\\u007f",\n  "d": {},\n  "e": []\n}',
    );
  });
});

describe("jsonIntegration", () => {
  it("posts the payload in a json code block under the topic JSON", () => {
    expect(jsonIntegration.handle({ headers: {}, query: {}, body: '{"k":"v"}', contentType: "application/json" })).toEqual({
      kind: "messages",
      eventType: null,
      messages: [{ topic: "JSON", content: '```json\n{\n  "k": "v"\n}\n```' }],
    });
  });
});
