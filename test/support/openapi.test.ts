import { describe, expect, it } from "vitest";
import { contractMode, isCi } from "./openapi.js";

describe("contractMode", () => {
  it("runs the contract tests when the file is present, CI or not", () => {
    expect(contractMode(true, {})).toBe("run");
    expect(contractMode(true, { CI: "true" })).toBe("run");
  });

  it("fails them when the file is missing under CI", () => {
    expect(contractMode(false, { CI: "true" })).toBe("fail");
    expect(contractMode(false, { CI: "1" })).toBe("fail");
  });

  it("skips them when the file is missing outside CI", () => {
    expect(contractMode(false, {})).toBe("skip");
    expect(contractMode(false, { CI: "false" })).toBe("skip");
  });
});

describe("isCi", () => {
  it("is true for CI set to anything but empty, false or 0", () => {
    expect(isCi({ CI: "true" })).toBe(true);
    expect(isCi({ CI: "1" })).toBe(true);
    expect(isCi({ CI: "woodpecker" })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: "" })).toBe(false);
    expect(isCi({ CI: "false" })).toBe(false);
    expect(isCi({ CI: "0" })).toBe(false);
  });
});
