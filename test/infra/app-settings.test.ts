import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { CDK_JSON_CONTEXT } from "./synth.js";

/**
 * Runs `infra/app.ts` as `cdk synth` does (a child process given the
 * context in `CDK_CONTEXT_JSON` and an output folder in `CDK_OUTDIR`, in the
 * folder `cdk` runs in), without bundling the functions.
 * @returns the exit status, stderr, and the stack's template when there is one
 */
async function runApp(
  cwd: string,
  context: Record<string, unknown> = {},
): Promise<{ status: number; stderr: string; template?: Record<string, any> }> {
  const outdir = mkdtempSync(path.join(tmpdir(), "zulip-cdk-out-"));
  const env = {
    ...process.env,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify({ ...CDK_JSON_CONTEXT, ...context, "aws:cdk:bundling-stacks": [] }),
  };
  const tsx = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx");
  try {
    const { stderr } = await promisify(execFile)(tsx, [path.join(PROJECT_ROOT, "infra", "app.ts")], {
      cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const name = JSON.parse(readFileSync(path.join(outdir, "manifest.json"), "utf8")).artifacts;
    const stack = Object.keys(name).find((id) => name[id].type === "aws:cloudformation:stack")!;
    return { status: 0, stderr, template: JSON.parse(readFileSync(path.join(outdir, `${stack}.template.json`), "utf8")) };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { status: failed.code ?? -1, stderr: failed.stderr ?? String(error) };
  }
}

/** An operator's settings: a custom domain, an alarm mailbox, an adopted table and the account's quota. */
const SETTINGS = {
  stackName: "ZulipProd",
  rootDomain: "chat.example.com",
  certificateArn: "arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000",
  alarmEmail: "ops@example.com",
  existingTableName: "zulip-restored",
  accountConcurrencyQuota: 3000,
};

describe("the CDK app reads the settings file on every synth", () => {
  let first: Awaited<ReturnType<typeof runApp>>;
  let second: Awaited<ReturnType<typeof runApp>>;

  beforeAll(async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "zulip-operator-"));
    writeFileSync(path.join(cwd, "deploy.config.json"), JSON.stringify(SETTINGS, null, 2));
    // The first deploy and a later plain `npx cdk deploy`: nothing but the file either time.
    [first, second] = await Promise.all([runApp(cwd), runApp(cwd)]);
  }, 600_000);

  it("synthesizes the same template twice, carrying every setting of the file", () => {
    expect(first.status, first.stderr).toBe(0);
    expect(second.template).toEqual(first.template);
    const resources = Object.values(first.template!.Resources as Record<string, any>);
    const ofType = (type: string) => resources.filter((r) => r.Type === type);
    expect(ofType("AWS::ApiGatewayV2::DomainName").map((r) => r.Properties.DomainName).sort()).toEqual([
      "*.chat.example.com",
      "chat.example.com",
    ]);
    expect(ofType("AWS::SNS::Subscription").map((r) => [r.Properties.Protocol, r.Properties.Endpoint])).toEqual([
      ["email", "ops@example.com"],
    ]);
    expect(ofType("AWS::DynamoDB::Table")).toEqual([]);
    expect(first.template!.Outputs.TableName.Value).toBe("zulip-restored");
    // min(3000 / 2, 3000 − 100 − 20 − 100)
    expect(ofType("AWS::Lambda::Function").map((r) => r.Properties.ReservedConcurrentExecutions).filter(Boolean)).toEqual([1500]);
    expect(ofType("AWS::CloudWatch::Alarm").map((r) => r.Properties.AlarmName)).toContain("ZulipProd-events-concurrency");
    // The template records the settings, so a lost file can be rewritten from the deployed stack.
    expect(first.template!.Metadata.ZulipDeployConfig).toMatchObject(SETTINGS);
  });

  it("refuses a setting given as -c, with the message alone", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "zulip-operator-"));
    const { status, stderr } = await runApp(cwd, { alarmEmail: "ops@example.com" });
    expect(status).toBe(1);
    expect(stderr.trim()).toBe(
      '"alarmEmail" came as CDK context (-c alarmEmail=…, cdk.json or cdk.context.json). Deploy settings are read from ' +
        "deploy.config.json only, so that every later deploy keeps them: remove it from the context and put it in " +
        'deploy.config.json (docs/deploying.md, "Settings").',
    );
  }, 300_000);

  it("refuses an unknown key in the file, naming it", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "zulip-operator-"));
    writeFileSync(path.join(cwd, "deploy.config.json"), JSON.stringify({ alarmMail: "ops@example.com" }));
    const { status, stderr } = await runApp(cwd);
    expect(status).toBe(1);
    expect(stderr.trim()).toMatch(/^deploy.config.json: unknown key "alarmMail" \(allowed: stackName, rootDomain, /);
  }, 300_000);
});
