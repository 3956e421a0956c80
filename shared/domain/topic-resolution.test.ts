import { describe, expect, it } from "vitest";
import { isResolvedTopic, resolutionChange, unresolvedName } from "./topic-resolution.js";

describe("topic resolution", () => {
  it("recognizes the prefix", () => {
    expect(isResolvedTopic("✔ lunch")).toBe(true);
    expect(isResolvedTopic("lunch")).toBe(false);
    expect(unresolvedName("✔ ✔ lunch")).toBe("lunch");
  });
  it("classifies renames", () => {
    expect(resolutionChange("lunch", "✔ lunch")).toBe("resolved");
    expect(resolutionChange("✔ lunch", "lunch")).toBe("unresolved");
    expect(resolutionChange("lunch", "dinner")).toBeUndefined();
    expect(resolutionChange("lunch", "✔ dinner")).toBeUndefined();
  });
});
