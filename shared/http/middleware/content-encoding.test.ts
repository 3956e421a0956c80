import { describe, expect, it } from "vitest";
import { contentEncoding, negotiateContentCoding } from "./content-encoding.js";
import { createLogger } from "../../logger.js";

describe("negotiateContentCoding", () => {
  it("answers identity without a header or with nothing acceptable", () => {
    expect(negotiateContentCoding(undefined)).toBeUndefined();
    expect(negotiateContentCoding("identity")).toBeUndefined();
    expect(negotiateContentCoding("gzip;q=0, compress")).toBeUndefined();
  });

  it("takes the highest weight, br before gzip before deflate on ties", () => {
    expect(negotiateContentCoding("gzip, deflate")).toBe("gzip");
    expect(negotiateContentCoding("deflate, gzip, br")).toBe("br");
    expect(negotiateContentCoding("br;q=0.2, gzip;q=0.8")).toBe("gzip");
    expect(negotiateContentCoding("GZIP ; Q=1")).toBe("gzip");
  });

  it("lets * stand for codings not named", () => {
    expect(negotiateContentCoding("*")).toBe("br");
    expect(negotiateContentCoding("br;q=0, *;q=0.5")).toBe("gzip");
  });
});

describe("contentEncoding", () => {
  it("refuses unknown options at construction", () => {
    expect(() => contentEncoding({ log: () => createLogger("silent"), threshold: 1 } as never)).toThrow(
      "contentEncoding: unknown option threshold",
    );
  });
});
