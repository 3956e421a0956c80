// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { applyColorScheme, COLOR_SCHEME, resolveColorScheme } from "./theme.js";

describe("resolveColorScheme", () => {
  it("forces dark or light, and follows the system when automatic", () => {
    expect(resolveColorScheme(COLOR_SCHEME.dark, false)).toBe("dark");
    expect(resolveColorScheme(COLOR_SCHEME.light, true)).toBe("light");
    expect(resolveColorScheme(COLOR_SCHEME.automatic, true)).toBe("dark");
    expect(resolveColorScheme(COLOR_SCHEME.automatic, false)).toBe("light");
  });

  it("treats a missing or unknown setting as automatic", () => {
    expect(resolveColorScheme(undefined, true)).toBe("dark");
    expect(resolveColorScheme(7, false)).toBe("light");
  });
});

describe("applyColorScheme", () => {
  it("writes the resolved scheme on the root element", () => {
    const root = document.createElement("div");
    applyColorScheme(COLOR_SCHEME.dark, root);
    expect(root.dataset.colorScheme).toBe("dark");
    applyColorScheme(COLOR_SCHEME.light, root);
    expect(root.dataset.colorScheme).toBe("light");
  });
});
