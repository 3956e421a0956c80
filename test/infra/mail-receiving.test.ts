import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { INCOMING_EMAIL_PREFIX, INCOMING_EMAIL_RETENTION_DAYS } from "../../shared/actions/email-gateway/process-email.js";
import { parseDeployConfig } from "../../infra/deploy-config.js";
import { synthesizeInChildProcess, type SynthesisResult } from "./synth.js";

/** cdk-nag's AWS Solutions findings of one level, as `<construct path>: <start of the text>`. */
function nag(out: SynthesisResult, level: "error" | "warning"): string[] {
  return out.annotations.filter((a) => a.level === level && /AwsSolutions-/.test(a.data)).map((a) => `${a.id}: ${a.data.slice(0, 100)}`);
}

describe("CDK stack with incoming email (the email gateway)", () => {
  let out: SynthesisResult;
  let template: Template;

  beforeAll(async () => {
    out = await synthesizeInChildProcess({ incomingEmail: { domain: "Mail.Example.com" } }, { nag: true, bundle: false });
    template = Template.fromJSON(out.template);
  }, 600_000);

  it("has a receipt rule for the domain storing mail in the files bucket under the prefix, scanned", () => {
    template.resourceCountIs("AWS::SES::ReceiptRuleSet", 1);
    template.hasResourceProperties("AWS::SES::ReceiptRule", {
      Rule: Match.objectLike({
        Enabled: true,
        Recipients: ["mail.example.com"],
        ScanEnabled: true,
        Actions: [{ S3Action: { BucketName: { Ref: out.ids["Files/Bucket"] }, ObjectKeyPrefix: INCOMING_EMAIL_PREFIX } }],
      }),
    });
  });

  it("lets SES put objects under the prefix only, for this account", () => {
    const policy = Object.values(out.template.Resources as Record<string, any>).find((r) => r.Type === "AWS::S3::BucketPolicy");
    const statement = policy.Properties.PolicyDocument.Statement.find((s: any) => s.Principal?.Service === "ses.amazonaws.com");
    expect(statement).toMatchObject({ Effect: "Allow", Action: "s3:PutObject", Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } } });
    expect(JSON.stringify(statement.Resource)).toContain(`/${INCOMING_EMAIL_PREFIX}*`);
  });

  it("sends the bucket's events to EventBridge and expires what is left under the prefix", () => {
    template.hasResourceProperties("AWS::S3::Bucket", {
      NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Prefix: INCOMING_EMAIL_PREFIX, ExpirationInDays: INCOMING_EMAIL_RETENTION_DAYS, Status: "Enabled" })]),
      },
    });
  });

  it("queues one incoming_email job per stored email, its key from the event", () => {
    const rule = Object.values(out.template.Resources as Record<string, any>).find(
      (r) => r.Type === "AWS::Events::Rule" && r.Properties.EventPattern?.source?.[0] === "aws.s3",
    );
    expect(rule.Properties.EventPattern).toMatchObject({
      "detail-type": ["Object Created"],
      detail: { bucket: { name: [{ Ref: out.ids["Files/Bucket"] }] }, object: { key: [{ prefix: INCOMING_EMAIL_PREFIX }] } },
    });
    const [target] = rule.Properties.Targets;
    expect(target.Arn).toEqual({ "Fn::GetAtt": [out.ids["Deferred/Queue"], "Arn"] });
    expect(target.InputTransformer.InputPathsMap).toEqual({ "detail-object-key": "$.detail.object.key" });
    expect(JSON.parse(target.InputTransformer.InputTemplate.replace("<detail-object-key>", JSON.stringify("incoming-email/abc")))).toEqual({
      kind: "incoming_email",
      payload: { key: "incoming-email/abc" },
    });
  });

  it("activates the rule set through SES's API and tells every function the gateway's domain", () => {
    const activation = Object.values(out.template.Resources as Record<string, any>).find((r) => r.Type === "Custom::AWS");
    expect(JSON.stringify(activation.Properties.Create)).toContain("setActiveReceiptRuleSet");
    const functions = Object.values(out.template.Resources as Record<string, any>).filter(
      (r) => r.Type === "AWS::Lambda::Function" && r.Properties.Environment?.Variables?.TABLE_NAME,
    );
    expect(functions.length).toBeGreaterThan(2);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.EMAIL_GATEWAY_DOMAIN).toBe("mail.example.com");
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nag(out, "error")).toEqual([]);
    expect(nag(out, "warning")).toEqual([]);
  });
});

describe("the incomingEmail setting", () => {
  it("takes a domain (lower-cased) and activateRuleSet, refusing anything else", () => {
    expect(parseDeployConfig({ incomingEmail: { domain: "A.example.org" } }).incomingEmail).toEqual({ domain: "a.example.org", activateRuleSet: true });
    expect(() => parseDeployConfig({ incomingEmail: { domain: "not a domain" } })).toThrow('"incomingEmail.domain" must be a domain name');
    expect(() => parseDeployConfig({ incomingEmail: { domain: "a.org", extra: 1 } })).toThrow(/unknown key "extra"|incomingEmail/);
  });

  it("without activation, the rule set is left inactive (no custom resource)", async () => {
    const out = await synthesizeInChildProcess({ incomingEmail: { domain: "mail.example.com", activateRuleSet: false } }, { nag: true, bundle: false });
    expect(Object.values(out.template.Resources as Record<string, any>).some((r) => r.Type === "Custom::AWS")).toBe(false);
    expect(nag(out, "error")).toEqual([]);
  }, 600_000);
});
