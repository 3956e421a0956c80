import { describe, expect, it } from "vitest";
import { paramsWithJsonBody } from "./raw-params.js";

describe("paramsWithJsonBody", () => {
  const query = new Map([["client", "web"]]);

  it("adds a JSON object body's scalar members as strings over the query string's", () => {
    const body = Buffer.from(JSON.stringify({ username: "a@b.c", password: "pw", remember: true, n: 5, nested: { x: 1 } }));
    const params = paramsWithJsonBody(query, "application/json; charset=utf-8", body);
    expect([...params]).toEqual([["client", "web"], ["username", "a@b.c"], ["password", "pw"], ["remember", "true"], ["n", "5"]]);
    expect([...query]).toEqual([["client", "web"]]);
  });

  it("leaves form bodies and bodiless requests to the collected parameters", () => {
    expect(paramsWithJsonBody(query, "application/x-www-form-urlencoded", Buffer.from("username=x"))).toBe(query);
    expect(paramsWithJsonBody(query, "application/json", undefined)).toBe(query);
  });

  it("refuses a JSON body that is not an object with 400 'Malformed JSON'", () => {
    for (const text of ["{", "[1]", "null", '"s"']) {
      expect(() => paramsWithJsonBody(query, "application/json", Buffer.from(text))).toThrow(
        expect.objectContaining({ message: "Malformed JSON", httpStatus: 400, code: "BAD_REQUEST" }),
      );
    }
  });
});
