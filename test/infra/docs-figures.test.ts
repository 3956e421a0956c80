import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AWS_PRICES } from "../../scripts/bench/prices.js";
import { planEventsConcurrency, eventsConcurrencyAlarmThreshold } from "../../infra/concurrency.js";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { FUNCTION_MEMORY_MB } from "../../infra/function-memory.js";
import { synthesizeInChildProcess } from "./synth.js";

/**
 * The figures docs/deploying.md states about the template and its costs,
 * checked against the template synthesized from deploy.config.example.json,
 * the concurrency arithmetic (infra/concurrency.ts), the function memory
 * table and the bench's prices and measured cost report: a change to any of
 * them fails here until the docs say the same.
 */
const DEPLOYING = readFileSync(path.join(PROJECT_ROOT, "docs", "deploying.md"), "utf8");
const PERFORMANCE = readFileSync(path.join(PROJECT_ROOT, "docs", "performance.md"), "utf8");
const EXAMPLE = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "deploy.config.example.json"), "utf8"));

/** Every match of `pattern` (global) in `text`, as its capture groups; at least one must exist. */
function all(text: string, pattern: RegExp): string[][] {
  const found = [...text.matchAll(pattern)].map((m) => m.slice(1));
  expect(found, String(pattern)).not.toEqual([]);
  return found;
}

/** A section of a markdown file, from its `## ` heading to the next one. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

const number = (text: string) => Number(text.replace(/,/g, "").replace("−", "-"));

describe("docs/deploying.md states the template's counts", () => {
  let functions: number;
  let alarms: Record<string, any>[];

  beforeAll(async () => {
    const { template } = await synthesizeInChildProcess(EXAMPLE);
    const resources = Object.values(template.Resources as Record<string, any>);
    functions = resources.filter((r) => r.Type === "AWS::Lambda::Function").length;
    alarms = resources.filter((r) => r.Type === "AWS::CloudWatch::Alarm").map((r) => r.Properties);
  }, 600_000);

  it("names the number of functions wherever it counts them", () => {
    expect(functions).toBe(12);
    for (const [n] of all(DEPLOYING, /\| (\d+) Lambda functions \|/g)) expect(number(n!)).toBe(functions);
    for (const [n] of all(DEPLOYING, /each of the (\d+) functions/g)) expect(number(n!)).toBe(functions);
    // Besides `events` (reserved) and the worker (capped).
    for (const [n] of all(DEPLOYING, /the other (\d+) functions/g)) expect(number(n!)).toBe(functions - 2);
  });

  it("counts the alarms, the metrics they read and their monthly price", () => {
    // CloudWatch bills a standard-resolution alarm per metric it reads: one, or each metric of its expression.
    const metricsOf = (a: Record<string, any>) => (a.MetricName ? 1 : (a.Metrics as any[]).filter((m) => m.MetricStat).length);
    const metrics = alarms.reduce((sum, a) => sum + metricsOf(a), 0);
    const concurrency = alarms.filter((a) => String(a.AlarmName).endsWith("-events-concurrency"));
    expect(concurrency).toHaveLength(1);
    const [[count, read, dollars]] = all(DEPLOYING, /the (\d+) alarms read (\d+) metrics, \$([\d.]+)/g) as [string, string, string][];
    expect([number(count), number(read), number(dollars)]).toEqual([alarms.length, metrics, Number((metrics * 0.1).toFixed(2))]);
    const [[without, readWithout]] = all(DEPLOYING, /(\d+) alarms and (\d+)\s+metrics without an `events` reservation/g) as [string, string][];
    expect([number(without), number(readWithout)]).toEqual([alarms.length - 1, metrics - metricsOf(concurrency[0]!)]);
  });
});

describe("docs/deploying.md's concurrency and client-hour figures", () => {
  it("tabulates the events reservation as infra/concurrency.ts derives it", () => {
    const rows = all(section(DEPLOYING, "Concurrency"), /^\| ([\d,]+) \| ([\d,]+) \| ([−\d,]+) \| (.+?) \| (.+?) \|$/gm);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [quota, half, rest, reserved, alarm] of rows) {
      const q = number(quota!);
      const plan = planEventsConcurrency({ accountConcurrencyQuota: q, workerMaxConcurrency: 20, apiRateLimit: 200 });
      expect([number(half!), number(rest!)], quota).toEqual([Math.floor(q / 2), q - 100 - 20 - 100]);
      if (plan.reserved === 0) {
        expect([reserved, alarm], quota).toEqual(["none (warning)", "–"]);
      } else {
        expect([number(reserved!), number(alarm!)], quota).toEqual([plan.reserved, eventsConcurrencyAlarmThreshold(plan.reserved)]);
      }
    }
  });

  it("prices a connected client-hour as the bench measured it, at the events function's memory", () => {
    const [[measured]] = all(PERFORMANCE, /^connected client-hour \(takes stream typing\)\s+([\d.]+)/gm);
    const clientHour = Number(Number(measured).toFixed(4));
    const text = section(DEPLOYING, "Running many clients");
    // Every memory size the section names is the events function's (not a size it used to have).
    for (const [mb] of all(text, /(\d+) MB/g)) expect(number(mb!)).toBe(FUNCTION_MEMORY_MB.events);
    const gbSeconds = (FUNCTION_MEMORY_MB.events / 1024) * 3600;
    const [[stated, duration]] = all(text, /that is (\d+)\s+GB-seconds, \$([\d.]+), per connected client-hour/g) as [string, string][];
    expect([number(stated), number(duration)]).toEqual([gbSeconds, Number((gbSeconds * AWS_PRICES.lambdaGbSecond).toFixed(4))]);
    for (const [price] of all(text, /about \$([\d.]+) per connected client-hour in all/g)) expect(Number(price)).toBe(clientHour);
    // The break-even row: floor ÷ client-hour, and three times that for users connected 8 h of 24.
    const [[row, small, large, small8, large8]] = all(
      text,
      /^\| \d+ MB \| \$([\d.]+) \| 0\.29 \/ [\d.]+ ≈ (\d+) \(≈ (\d+) with 4-vCPU instances\) \| ≈ (\d+) \(≈ (\d+)\) \|$/gm,
    ) as [string, string, string, string, string][];
    expect(Number(row)).toBe(clientHour);
    expect([small, large, small8, large8].map(Number)).toEqual(
      [0.29 / clientHour, 0.54 / clientHour, (3 * 0.29) / clientHour, (3 * 0.54) / clientHour].map(Math.round),
    );
  });
});
