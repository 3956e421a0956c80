import { beforeAll, describe, expect, it } from "vitest";
import { parseDeployConfig } from "../../infra/deploy-config.js";
import { parseDeferredJob } from "../../shared/deferred/jobs.js";
import { nagFindings, ofType, synthesize, type Synthesized } from "./operations-synth.js";
import { lintTemplate, prepareTemplateLinter } from "./template-validator.js";

const ORG_ID = "8a3b5c1e-2f4d-4e6a-9b7c-0d1e2f3a4b5c";
const PUSH_VARIABLES = ["PUSH_NOTIFICATION_BOUNCER_URL", "ZULIP_ORG_ID", "ZULIP_ORG_KEY"];
/** The functions that talk to the service, and some that do not. */
const WITH_PUSH = ["Worker/Function", "PresenceApi/Function", "UnauthenticatedApi/Function"];
const WITHOUT_PUSH = ["EventsApi/Function", "FallbackApi/Function", "UsersApi/Function"];

const variables = (s: Synthesized, path: string): Record<string, unknown> =>
  s.resources[s.id(path)]!.Properties!.Environment.Variables as Record<string, unknown>;

describe("deploy settings: pushNotifications", () => {
  it("defaults the service to Zulip's, needs a UUID, and is optional", () => {
    expect(parseDeployConfig({}).pushNotifications).toBeUndefined();
    expect(parseDeployConfig({ pushNotifications: { zulipOrgId: ORG_ID } }).pushNotifications).toEqual({
      zulipOrgId: ORG_ID,
      bouncerUrl: "https://push.zulipchat.com",
    });
  });

  it("refuses a missing or malformed UUID, an http URL and unknown keys, saying what is allowed", () => {
    expect(() => parseDeployConfig({ pushNotifications: { zulipOrgId: "not-a-uuid" } })).toThrow(
      'deploy.config.json: "pushNotifications.zulipOrgId" must be a UUID (npm run manage -- push-server-id prints one), got "not-a-uuid"',
    );
    expect(() => parseDeployConfig({ pushNotifications: {} })).toThrow(/"pushNotifications.zulipOrgId" must be a UUID/);
    expect(() => parseDeployConfig({ pushNotifications: { zulipOrgId: ORG_ID, bouncerUrl: "http://push.example.com" } })).toThrow(
      '"pushNotifications.bouncerUrl" must be an https URL such as https://push.zulipchat.com',
    );
    expect(() => parseDeployConfig({ pushNotifications: { zulipOrgId: ORG_ID, zulipOrgKey: "x" } })).toThrow(/unknown key|unrecognized/i);
    expect(() => parseDeployConfig({ pushNotifications: ORG_ID })).toThrow('"pushNotifications" must be {"zulipOrgId": …, "bouncerUrl"?: …}');
  });
});

describe("CDK stack with push notifications", () => {
  let s: Synthesized;
  beforeAll(async () => {
    s = await synthesize({ pushNotifications: { zulipOrgId: ORG_ID, bouncerUrl: "https://push.example.com" } });
  }, 600_000);

  it("keeps the server's credentials in a retained secret whose key Secrets Manager generates (64 letters and digits)", () => {
    const secrets = ofType(s, "AWS::SecretsManager::Secret").filter(([id]) => id === s.id("PushNotifications/Credentials"));
    expect(secrets).toHaveLength(1);
    const [, secret] = secrets[0]!;
    expect(secret).toMatchObject({ DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    expect(secret.Properties!.GenerateSecretString).toEqual({
      SecretStringTemplate: JSON.stringify({ zulip_org_id: ORG_ID }),
      GenerateStringKey: "zulip_org_key",
      PasswordLength: 64,
      ExcludePunctuation: true,
      IncludeSpace: false,
    });
  });

  it("gives the worker, presence and unauthenticated functions the service's URL, the ID and the key as a dynamic reference", () => {
    const secretRef = { Ref: s.id("PushNotifications/Credentials") };
    for (const path of WITH_PUSH) {
      const env = variables(s, path);
      expect(env.PUSH_NOTIFICATION_BOUNCER_URL, path).toBe("https://push.example.com");
      expect(env.ZULIP_ORG_ID, path).toBe(ORG_ID);
      expect(env.ZULIP_ORG_KEY, path).toEqual({ "Fn::Join": ["", ["{{resolve:secretsmanager:", secretRef, ":SecretString:zulip_org_key::}}"]] });
    }
    for (const path of WITHOUT_PUSH) {
      for (const name of PUSH_VARIABLES) expect(variables(s, path)[name], `${path} ${name}`).toBeUndefined();
    }
    // Messages (edits and deletions clear notifications) knows the service is in use, without the credentials.
    expect(variables(s, "MessagesApi/Function").PUSH_NOTIFICATION_BOUNCER_URL).toBe("https://push.example.com");
    expect(variables(s, "MessagesApi/Function").ZULIP_ORG_ID).toBeUndefined();
    expect(variables(s, "MessagesApi/Function").ZULIP_ORG_KEY).toBeUndefined();
    // The key's value is never in the template.
    expect(JSON.stringify(s.template.toJSON())).not.toMatch(/"ZULIP_ORG_KEY":"[A-Za-z0-9]{64}"/);
  });

  it("puts a push_bouncer_update job on the deferred-work queue daily", () => {
    const rule = s.resources[s.id("PushNotifications/Upload/Daily")]!.Properties!;
    expect(rule.ScheduleExpression).toBe("cron(23 4 * * ? *)");
    expect(rule.Targets).toHaveLength(1);
    expect(rule.Targets[0].Arn).toEqual({ "Fn::GetAtt": [s.id("Deferred/Queue"), "Arn"] });
    expect(parseDeferredJob(rule.Targets[0].Input)).toEqual({ kind: "push_bouncer_update", payload: {} });
  });

  it("outputs the service's URL and the secret's ARN for npm run manage", () => {
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.PushNotificationBouncerUrl!.Value).toBe("https://push.example.com");
    expect(outputs.PushNotificationsSecretArn!.Value).toEqual({ Ref: s.id("PushNotifications/Credentials") });
  });

  it("passes the template linter and cdk-nag's AWS Solutions checks", () => {
    prepareTemplateLinter();
    expect(lintTemplate(s.template.toJSON())).toEqual([]);
    expect(nagFindings(s)).toEqual([]);
  });
});

describe("CDK stack without push notifications", () => {
  let s: Synthesized;
  beforeAll(async () => {
    s = await synthesize({});
  }, 600_000);

  it("has no push secret, variable, schedule or output", () => {
    for (const path of [...WITH_PUSH, ...WITHOUT_PUSH]) {
      for (const name of PUSH_VARIABLES) expect(variables(s, path)[name], `${path} ${name}`).toBeUndefined();
    }
    const rules = ofType(s, "AWS::Events::Rule").map(([, r]) => String(r.Properties!.Targets?.[0]?.Input ?? ""));
    expect(rules.some((input) => input.includes("push_bouncer_update"))).toBe(false);
    const outputs = s.template.toJSON().Outputs as Record<string, unknown>;
    expect(outputs.PushNotificationsSecretArn).toBeUndefined();
    expect(ofType(s, "AWS::SecretsManager::Secret")).toHaveLength(1); // the camo key only
    expect(nagFindings(s)).toEqual([]);
  });
});
