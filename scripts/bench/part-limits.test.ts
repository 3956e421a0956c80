import { describe, expect, it } from "vitest";
import { mergeLargest } from "./http.js";
import { renderLimits, type LimitsResult } from "./part-limits.js";

describe("bench: rate limits and response sizes", () => {
  it("keeps the larger answer of two threads per request", () => {
    const merged = mergeLargest(
      { "GET /messages": { bytes: 10, gzipBytes: 4 }, "POST /register": { bytes: 900, gzipBytes: 90 } },
      { "GET /messages": { bytes: 20, gzipBytes: 3 } },
    );
    expect(merged).toEqual({ "GET /messages": { bytes: 20, gzipBytes: 3 }, "POST /register": { bytes: 900, gzipBytes: 90 } });
  });

  it("reports the round trips and WCU a limit adds, and the largest bodies against Lambda's 6 MB", () => {
    // Prepare
    const condition = { requests: 20, errors: 0, rcu: 3, commands: "Get 2, BatchGet 1" };
    const result: LimitsResult = {
      request: "GET /users/me",
      off: { ...condition, roundTrips: 3, wcu: 0 },
      on: { ...condition, roundTrips: 4, wcu: 1, commands: "Get 2, Update 1, BatchGet 1" },
      largest: { "GET /messages": { bytes: 3_145_728, gzipBytes: 400_000 } },
      fullRegister: { status: 200, ms: 640.4 },
    };
    // Act
    const text = renderLimits(result);
    // Assess
    expect(text).toContain("A rate-limited request adds 1 round trip(s) and 1 WCU");
    expect(text).toMatch(/GET \/messages\s+3,145,728\s+400,000\s+50%/);
    expect(text).toMatch(/POST \/register\s+-\s+-\s+-/);
    expect(text).toContain("(HTTP 200, 640 ms)");
  });
});
