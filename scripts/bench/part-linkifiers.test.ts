import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../shared/markdown/render.js";
import { benchLinkifiers, renderLinkifiers, roundTripsConstant, type LinkifierRun } from "./part-linkifiers.js";

function run(linkifiers: number, calls: number, rcu: number, p50: number): LinkifierRun {
  return {
    linkifiers,
    sends: 15,
    errors: 0,
    latency: { count: 15, p50, p90: p50 * 2, p99: p50 * 2, max: p50 * 2, mean: p50 },
    work: { calls, rcu, wcu: 6, sqs: 0 },
    byCommand: { GetCommand: calls * 15 },
    getUnits: rcu,
  };
}

describe("bench: linkifiers", () => {
  it("makes distinct linkifiers, the last one matching the sent content", () => {
    expect(benchLinkifiers(0)).toEqual([]);
    const list = benchLinkifiers(3);
    expect(list.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(new Set(list.map((l) => l.pattern)).size).toBe(3);
    expect(list[2]).toEqual({ id: 3, pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker2.example.com/issues/{id}" });
    // The bench's content is linked by the last of 100 (every pattern compiles).
    const lookups = { users: [], groups: [], streams: [], realmEmoji: [], realmUrl: "https://zulip.example.com", linkifiers: benchLinkifiers(100) };
    expect(renderMarkdown("fix #1234 please", lookups).html).toBe('<p>fix <a href="https://tracker99.example.com/issues/1234">#1234</a> please</p>');
  });

  it("reports whether round trips stay the same whatever the count", () => {
    const runs = [run(0, 9, 5, 40), run(10, 9, 5, 41), run(100, 9, 30, 52)];
    expect(roundTripsConstant(runs)).toBe(true);
    expect(roundTripsConstant([...runs, run(100, 10, 30, 52)])).toBe(false);
    const text = renderLinkifiers({ subscribers: 10, runs });
    expect(text).toContain("Round trips are the same for every count.");
    // 30 RCU × $0.125 + 6 WCU × $0.625 per million, times 1,000.
    expect(text).toMatch(/\n\s*100\s+15\s+52\s+104\s+9\s+30\s+6\s+30\s+\$0\.0075\s+0/);
    expect(text).toContain("calls/send with 0 linkifiers: Get 9");
    expect(renderLinkifiers({ subscribers: 10, runs: [run(0, 9, 5, 40), run(10, 10, 5, 40)] })).toContain("Round trips DIFFER between counts.");
  });
});
