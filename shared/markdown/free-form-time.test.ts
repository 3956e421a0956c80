import { describe, expect, it } from "vitest";
import { parseFreeFormTime } from "./free-form-time.js";

const iso = (text: string) => {
  const ms = parseFreeFormTime(text);
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

describe("parseFreeFormTime", () => {
  it("reads month-first and day-first dates, with or without a time", () => {
    expect(iso("Sep 9th 2019, 7:05AM")).toBe("2019-09-09T07:05:00.000Z");
    expect(iso("September 9 2019 19:05")).toBe("2019-09-09T19:05:00.000Z");
    expect(iso("9 Sep 2019")).toBe("2019-09-09T00:00:00.000Z");
  });

  it("applies a zone abbreviation or offset, and UTC without one", () => {
    expect(iso("9 Sep 2019 10:00 am PST")).toBe("2019-09-09T18:00:00.000Z");
    expect(iso("9 Sep 2019 10:00 +0200")).toBe("2019-09-09T08:00:00.000Z");
    expect(iso("9 Sep 2019 10 am")).toBe("2019-09-09T10:00:00.000Z");
  });

  it("refuses texts that are not a date", () => {
    expect(iso("soon")).toBeUndefined();
    expect(iso("Feb 30 2019")).toBeUndefined();
    expect(iso("9 Sep 2019 10:00 XYZ")).toBeUndefined();
  });
});
