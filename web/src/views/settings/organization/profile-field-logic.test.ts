import { describe, expect, it } from "vitest";
import { fieldTypeName, moved, selectFieldData, selectOptionLines } from "./profile-field-logic.js";

describe("list-of-options field data", () => {
  it("numbers the options in order and reads them back", () => {
    const data = selectFieldData("Tea\n\n Coffee \n");
    expect(JSON.parse(data)).toEqual({ 0: { text: "Tea", order: "0" }, 1: { text: "Coffee", order: "1" } });
    expect(selectOptionLines(data)).toBe("Tea\nCoffee");
    expect(selectOptionLines('{"a":{"text":"B","order":"2"},"b":{"text":"A","order":"1"}}')).toBe("A\nB");
    expect(selectOptionLines("")).toBe("");
  });
});

describe("moved", () => {
  it("swaps with the neighbour, and keeps the ends in place", () => {
    expect(moved([1, 2, 3], 2, -1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 3, 2]);
    expect(moved([1, 2, 3], 1, -1)).toEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });
});

describe("fieldTypeName", () => {
  it("names Zulip's types", () => {
    expect(fieldTypeName(1)).toBe("Short text");
    expect(fieldTypeName(7)).toBe("External account");
  });
});
