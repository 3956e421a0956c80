import { describe, expect, it } from "vitest";
import { renderRunSummary, runBenchPart, type BenchResults } from "./run-summary.js";

function runner(drainMs: number | undefined) {
  const printed: string[] = [];
  const logged: string[] = [];
  const results: BenchResults = { failures: {}, drains: [] };
  return { printed, logged, results, r: { results, print: (t: string) => printed.push(t), log: (l: string) => logged.push(l), drain: async () => drainMs, drainBoundMs: 60_000 } };
}

describe("runBenchPart", () => {
  it("prints a part's tables as soon as it ends and records its drain", async () => {
    const x = runner(1500);
    const ok = await runBenchPart(x.r, "life", async () => ({ n: 3 }), (r) => `table of ${r.n}`);
    expect(ok).toBe(true);
    expect(x.printed).toEqual(["table of 3\n"]);
    expect(x.results.life).toEqual({ n: 3 });
    expect(x.results.drains).toEqual([{ after: "life", ms: 1500 }]);
    expect(x.logged).toEqual(["after life: backlog drained in 1.5 s"]);
  });

  it("reports a failed part with its error, drains, and lets the next part run", async () => {
    const x = runner(undefined);
    const failed = await runBenchPart(
      x.r,
      "messages",
      async () => {
        throw new Error("driver op get did not finish within 60 s");
      },
      () => "never",
    );
    expect(failed).toBe(false);
    expect(x.printed[0]).toMatch(/^Part messages FAILED after \d+ s: driver op get did not finish within 60 s\n$/);
    expect(x.results.failures).toEqual({ messages: "driver op get did not finish within 60 s" });
    expect(x.results.messages).toBeUndefined();
    expect(x.results.drains).toEqual([{ after: "messages", ms: undefined }]);
    expect(x.logged.at(-1)).toBe("after messages: backlog not drained within 60 s; going on");

    expect(await runBenchPart(x.r, "limits", async () => "ok", (r) => r)).toBe(true);
    expect(x.printed[1]).toBe("ok\n");
    expect(renderRunSummary(x.results, "12 s", "1 1 1")).toBe(
      [
        "elapsed: 12 s",
        "load:    1 1 1",
        "backlog drained after each part: messages not drained within the bound, limits not drained within the bound",
        "parts failed: messages (driver op get did not finish within 60 s)",
      ].join("\n"),
    );
  });
});
