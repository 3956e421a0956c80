import { describe, expect, it } from "vitest";
import { composeListOf } from "./compose-lists.js";

describe("composeListOf", () => {
  it("reads #drafts and #scheduled, and nothing else", () => {
    expect(composeListOf("#drafts")).toBe("drafts");
    expect(composeListOf("#scheduled/")).toBe("scheduled");
    expect(composeListOf("#feed")).toBeNull();
    expect(composeListOf("#narrow/is/starred")).toBeNull();
    expect(composeListOf("")).toBeNull();
  });
});
