import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { planEventsConcurrency } from "../../infra/concurrency.js";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { DeployConfigSchema, RATE_LIMIT_VARIABLES, loadDeployConfig, parseDeployConfig } from "../../infra/deploy-config.js";

const ALLOWED = Object.keys(DeployConfigSchema.shape).join(", ");

describe("parseDeployConfig", () => {
  it("has the stack's defaults for an empty file", () => {
    expect(parseDeployConfig({})).toEqual({
      stackName: "Zulip",
      orgSubdomains: true,
      destroyOnRemoval: false,
      logLevel: "info",
      apiRateLimit: 200,
      apiBurstLimit: 400,
      rateLimits: {},
      workerMaxConcurrency: 20,
      eventsManagedInstances: false,
      eventsPollsPerEnvironment: 256,
      eventsMaxVCpus: 16,
    });
  });

  it("accepts the committed example file, lower-casing the domain", () => {
    const example = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "deploy.config.example.json"), "utf8"));
    expect(parseDeployConfig({ ...example, rootDomain: "Chat.Example.COM" })).toMatchObject({
      rootDomain: "chat.example.com",
      alarmEmail: "ops@example.com",
      accountConcurrencyQuota: 1000,
    });
  });

  it("refuses an unknown key, naming it and the allowed ones", () => {
    expect(() => parseDeployConfig({ alarmEmial: "ops@example.com" })).toThrow(
      `deploy.config.json: unknown key "alarmEmial" (allowed: ${ALLOWED})`,
    );
  });

  it("refuses malformed values, naming the key, what it allows and what it got", () => {
    const refusal = (raw: unknown) => {
      try {
        parseDeployConfig(raw);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({ eventsReservedConcurrency: "800" })).toBe(
      'deploy.config.json: "eventsReservedConcurrency" must be an integer from 0 to 10000000, got "800"',
    );
    expect(refusal({ workerMaxConcurrency: 1 })).toBe('deploy.config.json: "workerMaxConcurrency" must be an integer from 2 to 1000, got 1');
    expect(refusal({ eventsMaxVCpus: 12.5 })).toBe('deploy.config.json: "eventsMaxVCpus" must be an integer from 12 to 15000, got 12.5');
    expect(refusal({ orgSubdomains: "false" })).toBe(
      'deploy.config.json: "orgSubdomains" must be true or false (a JSON boolean, not a string), got "false"',
    );
    expect(refusal({ logLevel: "loud" })).toBe('deploy.config.json: "logLevel" must be one of debug, info, warn, error, silent, got "loud"');
    expect(refusal({ alarmEmail: "ops" })).toBe('deploy.config.json: "alarmEmail" must be an email address, got "ops"');
    expect(refusal({ apiRateLimit: 0 })).toBe('deploy.config.json: "apiRateLimit" must be a positive number, got 0');
    expect(refusal({ rootDomain: "" })).toBe('deploy.config.json: "rootDomain" must be a host name such as chat.example.com, got ""');
    expect(refusal({ stackName: "my stack" })).toMatch(/^deploy.config.json: "stackName" must be a CloudFormation stack name/);
    expect(refusal({ certificateArn: "arn:aws:acm:eu-west-1:123456789012:certificate/abc" })).toBe(
      'deploy.config.json: "certificateArn" needs rootDomain (the domain the certificate is for), got "arn:aws:acm:eu-west-1:123456789012:certificate/abc"',
    );
    expect(refusal([])).toBe("deploy.config.json: must be a JSON object of settings, got []");
    // Every bad key is listed at once.
    expect(refusal({ logLevel: "loud", workerMaxConcurrency: 1 }).split("\n")).toHaveLength(2);
  });

  it("checks rate limits by the runtime's names and schema", () => {
    expect(RATE_LIMIT_VARIABLES).toEqual(expect.arrayContaining(["RATE_LIMITS", "RATE_LIMIT_USER_REQUESTS"]));
    expect(parseDeployConfig({ rateLimits: { RATE_LIMITS: "off", RATE_LIMIT_USER_REQUESTS: 400 } }).rateLimits).toEqual({
      RATE_LIMITS: "off",
      RATE_LIMIT_USER_REQUESTS: 400,
    });
    expect(() => parseDeployConfig({ rateLimits: { TABLE_NAME: "other" } })).toThrow(
      `deploy.config.json: "rateLimits.TABLE_NAME" is no rate-limit variable (allowed: ${RATE_LIMIT_VARIABLES.join(", ")}), got "other"`,
    );
    expect(() => parseDeployConfig({ rateLimits: { RATE_LIMIT_USER_REQUESTS: "many" } })).toThrow(
      /^deploy.config.json: "rateLimits.RATE_LIMIT_USER_REQUESTS" is refused by shared\/config.ts \(.+\), got "many"$/,
    );
  });

  it("takes a BigBlueButton server as an https URL and the name of the secret holding its shared secret", () => {
    const server = { url: "https://bbb.example.com/bigbluebutton/", secretName: "zulip/bigbluebutton" };
    expect(parseDeployConfig({ bigBlueButton: server }).bigBlueButton).toEqual(server);
    const arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:zulip/bbb-AbCdEf";
    expect(parseDeployConfig({ bigBlueButton: { ...server, secretName: arn } }).bigBlueButton?.secretName).toBe(arn);
    expect(() => parseDeployConfig({ bigBlueButton: { ...server, url: "http://bbb.example.com/" } })).toThrow(
      'deploy.config.json: "bigBlueButton.url" must be an https URL such as https://bbb.example.com/bigbluebutton/, got "http://bbb.example.com/"',
    );
    expect(() => parseDeployConfig({ bigBlueButton: { url: server.url } })).toThrow(
      'deploy.config.json: "bigBlueButton.secretName" must be the name or ARN of a Secrets Manager secret, got undefined',
    );
    // The secret itself has no place in the file (the template records the file's settings).
    expect(() => parseDeployConfig({ bigBlueButton: { ...server, secret: "s3cr3t" } })).toThrow('unknown key "secret"');
  });

  it("refuses a reservation the account's quota cannot hold, saying what to ask AWS for", () => {
    expect(() => parseDeployConfig({ accountConcurrencyQuota: 400, eventsReservedConcurrency: 500 })).toThrow(
      'deploy.config.json: "eventsReservedConcurrency" 500 needs an account concurrency quota of at least 600 (Lambda keeps 100 ' +
        'unreserved) and accountConcurrencyQuota is 400: ask AWS for 600 or more (Service Quotas, AWS Lambda, "Concurrent ' +
        'executions"), or set eventsReservedConcurrency to 300 or less, got 500',
    );
    expect(parseDeployConfig({ accountConcurrencyQuota: 400, eventsReservedConcurrency: 300 }).eventsReservedConcurrency).toBe(300);
  });
});

describe("planEventsConcurrency", () => {
  const plan = (more: { accountConcurrencyQuota?: number; eventsReservedConcurrency?: number }) =>
    planEventsConcurrency({ workerMaxConcurrency: 20, apiRateLimit: 200, ...more });

  it("derives half the quota, leaving Lambda's 100, the worker's cap and the API's need unreserved", () => {
    expect(plan({ accountConcurrencyQuota: 1000 })).toEqual({ reserved: 500, source: "quota" });
    expect(plan({ accountConcurrencyQuota: 3000 })).toEqual({ reserved: 1500, source: "quota" });
    // min(200, 400 − 100 − 20 − 100 = 180)
    expect(plan({ accountConcurrencyQuota: 400 })).toEqual({ reserved: 180, source: "quota" });
  });

  it("reserves nothing on a quota too small, and says what quota to ask for", () => {
    const small = plan({ accountConcurrencyQuota: 200 });
    expect(small).toMatchObject({ reserved: 0, source: "none" });
    expect(small.warning).toContain("an account concurrency quota of 200 leaves no room for one");
    expect(small.warning).toContain("Ask AWS for 1000 concurrent executions");
  });

  it("keeps the operator's reservation, and reserves nothing when neither it nor the quota is known", () => {
    expect(plan({ eventsReservedConcurrency: 800 })).toEqual({ reserved: 800, source: "operator" });
    expect(plan({ eventsReservedConcurrency: 0, accountConcurrencyQuota: 5000 })).toEqual({ reserved: 0, source: "operator" });
    expect(plan({})).toMatchObject({ reserved: 0, source: "none", warning: expect.stringContaining("Set accountConcurrencyQuota") });
  });
});

describe("loadDeployConfig", () => {
  const folder = () => mkdtempSync(path.join(tmpdir(), "zulip-deploy-config-"));
  const load = (root: string, context: Record<string, unknown> = {}) => loadDeployConfig(new App({ context }).node, root);

  it("reads deploy.config.json from the folder cdk runs in, and every default without one", () => {
    const root = folder();
    expect(load(root)).toEqual({ config: parseDeployConfig({}) });
    writeFileSync(path.join(root, "deploy.config.json"), JSON.stringify({ alarmEmail: "ops@example.com" }));
    expect(load(root)).toEqual({ config: parseDeployConfig({ alarmEmail: "ops@example.com" }), file: "deploy.config.json" });
  });

  it("reads the file -c config names instead, and refuses a missing one", () => {
    const root = folder();
    writeFileSync(path.join(root, "dev.json"), JSON.stringify({ stackName: "ZulipDev", destroyOnRemoval: true }));
    expect(load(root, { config: "dev.json" }).config).toMatchObject({ stackName: "ZulipDev", destroyOnRemoval: true });
    expect(() => load(root, { config: "missing.json" })).toThrow(`-c config=missing.json: there is no file ${path.join(root, "missing.json")}`);
  });

  it("names the file when it is not JSON or has a bad key", () => {
    const root = folder();
    writeFileSync(path.join(root, "deploy.config.json"), "{ alarmEmail: ops }");
    expect(() => load(root)).toThrow(/^deploy.config.json: not valid JSON \(/);
    writeFileSync(path.join(root, "deploy.config.json"), JSON.stringify({ domain: "chat.example.com" }));
    expect(() => load(root)).toThrow(/^deploy.config.json: unknown key "domain"/);
  });

  it("refuses settings given as CDK context, pointing to the file", () => {
    const root = folder();
    expect(() => load(root, { rootDomain: "chat.example.com" })).toThrow(
      '"rootDomain" came as CDK context (-c rootDomain=…, cdk.json or cdk.context.json). Deploy settings are read from ' +
        'deploy.config.json only, so that every later deploy keeps them: remove it from the context and put it in ' +
        'deploy.config.json (docs/deploying.md, "Settings").',
    );
    expect(() => load(root, { RATE_LIMIT_USER_REQUESTS: "400" })).toThrow(/put it in deploy.config.json under "rateLimits"/);
    // Feature flags and CDK's own context stay where they are.
    expect(load(root, { "@aws-cdk/core:checkSecretUsage": true, "aws:cdk:bundling-stacks": [] }).config.stackName).toBe("Zulip");
  });
});
