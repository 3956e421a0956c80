import { describe, expect, it } from "vitest";
import { isValidTimezone } from "./settings-validation.js";

describe("isValidTimezone", () => {
  it.each(["America/New_York", "Europe/Berlin", "UTC", "US/Pacific", "Asia/Kolkata"])("accepts %s", (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });
  it.each(["", "Mars/Olympus", "america/new_york", "EUROPE/BERLIN"])("refuses %j", (tz) => {
    expect(isValidTimezone(tz)).toBe(false);
  });
});
