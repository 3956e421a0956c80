import { describe, expect, it } from "vitest";
import {
  againstTarget,
  clientHourCost,
  costOf,
  dominantTerm,
  idleMonthCost,
  interpolateSend,
  orgMonthCost,
  queriesPerPoll,
  requestCost,
  scaleCost,
  sendCost,
  sumCosts,
  type Activity,
  type SendPoint,
} from "./cost.js";
import { AWS_PRICES, pricesLine } from "./prices.js";

const p = AWS_PRICES;
const term = (c: ReturnType<typeof costOf>, name: string) => c.terms.find((t) => t.term === name)!;

describe("the price table", () => {
  it("holds the published us-east-1 prices per unit", () => {
    expect(p.lambdaGbSecond).toBe(0.0000133334);
    expect(p.lambdaRequest * 1e6).toBeCloseTo(0.2, 12);
    expect(p.httpApiRequest * 1e6).toBeCloseTo(1, 12);
    expect(p.dynamoReadUnit * 1e6).toBeCloseTo(0.125, 12);
    expect(p.dynamoWriteUnit * 1e6).toBeCloseTo(0.625, 12);
    expect(p.sqsRequest * 1e6).toBeCloseTo(0.4, 12);
    expect(pricesLine()).toContain("checked 2026-11");
    expect(pricesLine()).toContain("https://aws.amazon.com/dynamodb/pricing/on-demand/");
  });
});

describe("requestCost", () => {
  it("adds a send's Lambda time, two requests and its units", () => {
    // 1,024 MB for 0.15 s = 0.15 GB-s; 6 RRU; 12 WRU.
    const c = requestCost({ memoryMb: 1024, seconds: 0.15, readUnits: 6, writeUnits: 12 }, p);
    expect(term(c, "Lambda duration").quantity).toBeCloseTo(0.15, 12);
    expect(term(c, "Lambda duration").dollars).toBeCloseTo(0.00000200001, 15);
    expect(term(c, "DynamoDB reads").dollars).toBeCloseTo(0.00000075, 15);
    expect(term(c, "DynamoDB writes").dollars).toBeCloseTo(0.0000075, 15);
    expect(c.total).toBeCloseTo(0.00001145001, 14);
  });
});

describe("clientHourCost", () => {
  const poll = { memoryMb: 128, holdMs: 20_000, recheckMs: 1000, otherReadUnits: 3, writeUnits: 3, readUnitsPerQuery: 0.5, typing: false };

  it("counts 21 log reads per 20 s poll, twice that with the typing log", () => {
    expect(queriesPerPoll(poll)).toBe(21);
    expect(queriesPerPoll({ ...poll, typing: true })).toBe(42);
    expect(queriesPerPoll({ ...poll, holdMs: 25_000 })).toBe(26);
  });

  it("bills 180 polls of 20 s at 128 MB: 450 GB-s, $0.00686 an hour", () => {
    const c = clientHourCost(poll, p);
    expect(term(c, "Lambda duration").quantity).toBeCloseTo(450, 9);
    expect(term(c, "Lambda duration").dollars).toBeCloseTo(0.00600003, 11);
    expect(term(c, "Lambda requests").quantity).toBeCloseTo(180, 9);
    expect(term(c, "HTTP API requests").dollars).toBeCloseTo(0.00018, 12);
    // (3 + 21 × 0.5) × 180 = 2,430 RRU; 3 × 180 = 540 WRU.
    expect(term(c, "DynamoDB reads").quantity).toBeCloseTo(2430, 9);
    expect(term(c, "DynamoDB writes").dollars).toBeCloseTo(0.0003375, 12);
    expect(c.total).toBeCloseTo(0.00685728, 10);
    expect(dominantTerm(c)).toEqual({ term: "Lambda duration", share: expect.closeTo(0.875, 3) });
  });

  it("adds the typing log's Query to every read", () => {
    // (3 + 42 × 0.5) × 180 = 4,320 RRU = $0.00054.
    const c = clientHourCost({ ...poll, typing: true }, p);
    expect(term(c, "DynamoDB reads").dollars).toBeCloseTo(0.00054, 12);
    expect(c.total).toBeCloseTo(0.00709353, 10);
  });

  it("a 25 s hold makes 144 polls an hour and the same GB-seconds", () => {
    const c = clientHourCost({ ...poll, holdMs: 25_000 }, p);
    expect(term(c, "Lambda requests").quantity).toBeCloseTo(144, 9);
    expect(term(c, "Lambda duration").quantity).toBeCloseTo(450, 9);
    // (3 + 26 × 0.5) × 144 = 2,304 RRU; 3 × 144 = 432 WRU.
    expect(c.total).toBeCloseTo(0.00600003 + 144 * 1.2e-6 + 2304 * 0.125e-6 + 432 * 0.625e-6, 10);
  });
});

describe("sends", () => {
  const wokenPoll = requestCost({ memoryMb: 128, seconds: 0, readUnits: 4, writeUnits: 3 }, p);
  const ten: SendPoint = { members: 10, send: requestCost({ memoryMb: 1024, seconds: 0.1, readUnits: 6, writeUnits: 48 }, p), wokenPoll };
  const hundred: SendPoint = { members: 100, send: requestCost({ memoryMb: 1024, seconds: 0.4, readUnits: 6, writeUnits: 408 }, p), wokenPoll };

  it("a send to 10 members is its request plus 10 woken polls", () => {
    // Send: 0.1 GB-s + 1.2e-6 + 6 RRU + 48 WRU; poll: 1.2e-6 + 4 RRU + 3 WRU.
    const send = 0.1 * 0.0000133334 + 1.2e-6 + 6 * 0.125e-6 + 48 * 0.625e-6;
    const poll = 1.2e-6 + 4 * 0.125e-6 + 3 * 0.625e-6;
    expect(sendCost(ten).total).toBeCloseTo(send + 10 * poll, 14);
    expect(scaleCost(sendCost(ten), 1000).total).toBeCloseTo(1000 * (send + 10 * poll), 11);
    expect(term(sendCost(ten), "Lambda requests").quantity).toBe(11);
  });

  it("interpolates between the measured stream sizes", () => {
    const a = sendCost(ten).total;
    const b = sendCost(hundred).total;
    expect(interpolateSend(ten, hundred, 10)).toBeCloseTo(a, 14);
    expect(interpolateSend(ten, hundred, 100)).toBeCloseTo(b, 14);
    expect(interpolateSend(ten, hundred, 55)).toBeCloseTo((a + b) / 2, 14);
    expect(interpolateSend(ten, hundred, 2)).toBeCloseTo(a, 14);
  });

  it("sums terms of the same name", () => {
    const s = sumCosts([ten.send, hundred.send]);
    expect(term(s, "Lambda requests").quantity).toBe(2);
    expect(s.total).toBeCloseTo(ten.send.total + hundred.send.total, 14);
  });
});

describe("orgMonthCost", () => {
  it("multiplies the activity of 50 users over 21.7 working days", () => {
    const a: Activity = {
      users: 50,
      workingDaysPerMonth: 21.7,
      connectedHoursPerDay: 8,
      messagesPerDay: 40,
      streamMembers: 20,
      readsPerDay: 60,
      registersPerDay: 4,
      presencePerHour: 60,
    };
    const c = orgMonthCost(a, { clientHour: 0.01, send: (m) => m * 0.000005, read: 0.00001, register: 0.0001, presence: 0.000001 });
    expect(term(c, "connected idle time").quantity).toBeCloseTo(8680, 9);
    expect(term(c, "connected idle time").dollars).toBeCloseTo(86.8, 9);
    expect(term(c, "sends (20-member streams)").dollars).toBeCloseTo(43_400 * 0.0001, 9);
    expect(term(c, "presence pings").quantity).toBeCloseTo(520_800, 6);
    expect(term(c, "history reads").dollars).toBeCloseTo(0.651, 9);
    expect(term(c, "registers").dollars).toBeCloseTo(0.434, 9);
    expect(c.total).toBeCloseTo(86.8 + 4.34 + 0.5208 + 0.651 + 0.434, 9);
  });
});

describe("idleMonthCost", () => {
  it("splits the daily sweep's compute from the queue's empty receives", () => {
    const { compute, other } = idleMonthCost({ invocations: 30, invocationSeconds: 2, memoryMb: 512, sqsRequests: 648_000 }, p);
    expect(compute.total).toBeCloseTo(30 * 0.0000133334 + 30 * 0.2e-6, 12);
    expect(other.total).toBeCloseTo(0.2592, 12);
  });
});

describe("againstTarget", () => {
  it("reports met targets without a gap, missed ones with the gap and its share", () => {
    expect(againstTarget(0.006, 0.0065)).toEqual({ met: true, gap: 0, gapShare: 0 });
    const miss = againstTarget(0.00686, 0.0065);
    expect(miss.met).toBe(false);
    expect(miss.gap).toBeCloseTo(0.00036, 12);
    expect(miss.gapShare).toBeCloseTo(0.0553846, 6);
    expect(againstTarget(0, 0)).toEqual({ met: true, gap: 0, gapShare: 0 });
    expect(againstTarget(0.01, 0).met).toBe(false);
  });
});
