import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("loadConfig rate limits", () => {
  it("turns limits on by default with Zulip's numbers", () => {
    // Act
    const config = loadConfig({});
    // Assess
    expect(config).toMatchObject({
      RATE_LIMITS: "on",
      RATE_LIMIT_USER_REQUESTS: 200,
      RATE_LIMIT_USER_WINDOW_SECONDS: 60,
      RATE_LIMIT_IP_REQUESTS: 100,
      RATE_LIMIT_IP_WINDOW_SECONDS: 60,
      RATE_LIMIT_LOGIN_FAILURES: 5,
      RATE_LIMIT_LOGIN_WINDOW_SECONDS: 1800,
    });
  });

  it("reads RATE_LIMITS=off and numeric overrides, refusing malformed ones", () => {
    expect(loadConfig({ RATE_LIMITS: "off", RATE_LIMIT_USER_REQUESTS: "400" })).toMatchObject({
      RATE_LIMITS: "off",
      RATE_LIMIT_USER_REQUESTS: 400,
    });
    expect(() => loadConfig({ RATE_LIMITS: "maybe" })).toThrow();
    expect(() => loadConfig({ RATE_LIMIT_IP_REQUESTS: "0" })).toThrow();
  });
});
