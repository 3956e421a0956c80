import { describe, expect, it } from "vitest";
import { decodesAsLenientBase64, MAX_PUSH_TOKEN_LENGTH, validateApnsAppId, validatePushToken } from "./push-token.js";

describe("decodesAsLenientBase64 (Python's non-strict base64.b64decode)", () => {
  it("accepts whole groups of four data characters, skipping characters outside the alphabet", () => {
    // Prepare / Act / Assess: Zulip's own example token, its hyphen skipped.
    expect(decodesAsLenientBase64("apple-tokenbb")).toBe(true);
    expect(decodesAsLenientBase64("")).toBe(true);
    expect(decodesAsLenientBase64("c2VjcmV0")).toBe(true);
    expect(decodesAsLenientBase64("ab!cd")).toBe(true);
    expect(decodesAsLenientBase64("a".repeat(64))).toBe(true);
  });

  it("accepts padding that completes a group, and ignores what follows it", () => {
    expect(decodesAsLenientBase64("YQ==")).toBe(true);
    expect(decodesAsLenientBase64("YWI=")).toBe(true);
    expect(decodesAsLenientBase64("YQ==trailing")).toBe(true);
  });

  it("refuses a data length that is not a multiple of four, early padding, and non-ASCII text", () => {
    expect(decodesAsLenientBase64("a".repeat(63))).toBe(false);
    expect(decodesAsLenientBase64("abc")).toBe(false);
    expect(decodesAsLenientBase64("YQ=")).toBe(false);
    expect(decodesAsLenientBase64("=abc")).toBe(false);
    expect(decodesAsLenientBase64("abcé")).toBe(false);
  });
});

describe("validatePushToken", () => {
  it("refuses empty and over-long tokens of either kind", () => {
    for (const kind of [1, 2]) {
      expect(() => validatePushToken("", kind)).toThrow("Empty or invalid length token");
      expect(() => validatePushToken("a".repeat(MAX_PUSH_TOKEN_LENGTH + 4), kind)).toThrow("Empty or invalid length token");
    }
    expect(() => validatePushToken("a".repeat(MAX_PUSH_TOKEN_LENGTH), 1)).not.toThrow();
  });

  it("checks the base64 of APNs tokens only", () => {
    expect(() => validatePushToken("abc", 1)).toThrow("Invalid APNS token");
    expect(() => validatePushToken("abc", 2)).not.toThrow();
    expect(() => validatePushToken("apple-tokenbb", 1)).not.toThrow();
  });
});

describe("validateApnsAppId", () => {
  it("accepts bundle IDs and refuses anything else with Zulip's parser message", () => {
    expect(() => validateApnsAppId("org.zulip.Zulip")).not.toThrow();
    expect(() => validateApnsAppId("com.example-app.dev")).not.toThrow();
    for (const bad of ["", "'; tables --", "org zulip", "a".repeat(256)]) {
      expect(() => validateApnsAppId(bad)).toThrow("appid has invalid format");
    }
  });
});
