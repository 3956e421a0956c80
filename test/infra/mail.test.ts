import { beforeAll, describe, expect, it } from "vitest";
import { parseDeployConfig } from "../../infra/deploy-config.js";
import { parseDeferredJob } from "../../shared/deferred/jobs.js";
import { nagFindings, ofType, synthesize, type Synthesized } from "./operations-synth.js";
import { lintTemplate, prepareTemplateLinter } from "./template-validator.js";

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Every IAM policy statement of the template, with the policy's logical ID. */
function statements(s: Synthesized): { policy: string; statement: any }[] {
  return ofType(s, "AWS::IAM::Policy").flatMap(([policy, r]) =>
    (r.Properties!.PolicyDocument.Statement as any[]).map((statement) => ({ policy, statement })),
  );
}

/**
 * What EventBridge does with a rule target's input transformer, for the
 * parts this stack uses: each `<name>` of the template, outside quotes,
 * becomes the JSON of the value its path (dot notation from `$`) names in
 * the event. (docs.aws.amazon.com/eventbridge, "Input transformation".)
 */
function transform(transformer: { InputPathsMap: Record<string, string>; InputTemplate: string }, event: unknown): string {
  return transformer.InputTemplate.replace(/<([A-Za-z0-9_.-]+)>/g, (_, name: string) => {
    const path = transformer.InputPathsMap[name];
    if (!path) throw new Error(`no path for <${name}>`);
    const value = path
      .replace(/^\$\./, "")
      .split(".")
      .reduce<any>((at, key) => at?.[key], event);
    return JSON.stringify(value ?? null);
  });
}

/** SES's EventBridge events, shaped as its documentation shows them (values invented). */
function sesEvent(detailType: string, detail: Record<string, unknown>, configurationSet: string) {
  return {
    version: "0",
    id: "c6f7e1d1-0d5a-4c5c-9d8e-000000000000",
    "detail-type": detailType,
    source: "aws.ses",
    account: "123456789012",
    time: "2026-01-02T03:04:05Z",
    region: "eu-west-1",
    resources: [`arn:aws:ses:eu-west-1:123456789012:configuration-set/${configurationSet}`],
    detail: {
      ...detail,
      mail: {
        timestamp: "2026-01-02T03:04:00.000Z",
        source: "Org <noreply@example.com>",
        messageId: "0102018c-0000",
        destination: ["gone@example.net", "also-gone@example.net"],
        tags: { "ses:configuration-set": [configurationSet], "ses:from-domain": ["example.com"] },
      },
    },
  };
}

describe("deploy settings: email", () => {
  it("defaults the sender to noreply@ the domain, lower-cases the domain, and is optional", () => {
    expect(parseDeployConfig({}).email).toBeUndefined();
    expect(parseDeployConfig({ email: { domain: "Example.COM" } }).email).toEqual({ domain: "example.com" });
    expect(parseDeployConfig({ email: { domain: "example.com", fromAddress: "chat@Example.com" } }).email).toEqual({
      domain: "example.com",
      fromAddress: "chat@Example.com",
    });
  });

  it("refuses a sender at another domain, a malformed domain and unknown keys, saying what is allowed", () => {
    expect(() => parseDeployConfig({ email: { domain: "example.com", fromAddress: "noreply@other.example" } })).toThrow(
      'deploy.config.json: "email.fromAddress" must be an address at example.com (the identity SES verifies), got "noreply@other.example"',
    );
    expect(() => parseDeployConfig({ email: { domain: "localhost" } })).toThrow(
      'deploy.config.json: "email.domain" must be a domain name such as example.com, got "localhost"',
    );
    expect(() => parseDeployConfig({ email: { domain: "example.com", from: "x@example.com" } })).toThrow(/unknown key|unrecognized/i);
    expect(() => parseDeployConfig({ email: "example.com" })).toThrow('"email" must be {"domain": …, "fromAddress": …}');
  });
});

describe("CDK stack with email settings", () => {
  let s: Synthesized;
  beforeAll(async () => {
    s = await synthesize({ email: { domain: "example.com" } });
  }, 600_000);

  it("has the domain's SES identity with Easy DKIM (2048-bit), using the configuration set", () => {
    const identities = ofType(s, "AWS::SES::EmailIdentity");
    expect(identities).toHaveLength(1);
    expect(identities[0]![1].Properties).toMatchObject({
      EmailIdentity: "example.com",
      DkimSigningAttributes: { NextSigningKeyLength: "RSA_2048_BIT" },
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: s.id("Mail/ConfigurationSet") } },
    });
    expect(identities[0]![1]).toMatchObject({ DeletionPolicy: "Retain" });
  });

  it("has a configuration set keeping SES's suppression list, publishing bounces and complaints to the default bus", () => {
    const set = s.resources[s.id("Mail/ConfigurationSet")]!.Properties!;
    expect(set.SuppressionOptions).toEqual({ SuppressedReasons: ["BOUNCE", "COMPLAINT"] });
    const destinations = ofType(s, "AWS::SES::ConfigurationSetEventDestination");
    expect(destinations).toHaveLength(1);
    const destination = destinations[0]![1].Properties!;
    expect(destination.ConfigurationSetName).toEqual({ Ref: s.id("Mail/ConfigurationSet") });
    expect(destination.EventDestination.Enabled).toBe(true);
    expect([...destination.EventDestination.MatchingEventTypes].sort()).toEqual(["bounce", "complaint"]);
    expect(JSON.stringify(destination.EventDestination.EventBridgeDestination.EventBusArn)).toContain(":event-bus/default");
  });

  it("routes this configuration set's bounces and complaints to the deferred-work queue as ses_feedback jobs", () => {
    const queueArn = { "Fn::GetAtt": [s.id("Deferred/Queue"), "Arn"] };
    const setRef = { Ref: s.id("Mail/ConfigurationSet") };
    const bounces = s.resources[s.id("Mail/Bounces")]!.Properties!;
    const complaints = s.resources[s.id("Mail/Complaints")]!.Properties!;
    expect(bounces.EventPattern).toEqual({
      source: ["aws.ses"],
      "detail-type": ["Email Bounced"],
      detail: { mail: { tags: { "ses:configuration-set": [setRef] } } },
    });
    expect(complaints.EventPattern["detail-type"]).toEqual(["Email Complaint Received"]);
    for (const rule of [bounces, complaints]) {
      expect(rule.EventBusName).toBeUndefined();
      expect(rule.Targets).toHaveLength(1);
      expect(rule.Targets[0].Arn).toEqual(queueArn);
    }

    // Act: the transformers over SES's events
    const bounceJob = parseDeferredJob(
      transform(
        bounces.Targets[0].InputTransformer,
        sesEvent(
          "Email Bounced",
          {
            eventType: "Bounce",
            bounce: {
              bounceType: "Permanent",
              bounceSubType: "General",
              bouncedRecipients: [
                { emailAddress: "gone@example.net", action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
                { emailAddress: "also-gone@example.net", action: "failed", status: "5.1.1" },
              ],
              timestamp: "2026-01-02T03:04:05.000Z",
              feedbackId: "0102018c-feedback",
            },
          },
          "ConfigSet",
        ),
      ),
    );
    const complaintJob = parseDeferredJob(
      transform(
        complaints.Targets[0].InputTransformer,
        sesEvent(
          "Email Complaint Received",
          {
            eventType: "Complaint",
            complaint: {
              complainedRecipients: [{ emailAddress: "angry@example.net" }],
              timestamp: "2026-01-02T03:04:05.000Z",
              feedbackId: "0102018c-feedback",
              complaintFeedbackType: "abuse",
            },
          },
          "ConfigSet",
        ),
      ),
    );
    // Assess
    expect(bounceJob).toEqual({
      kind: "ses_feedback",
      payload: { event_type: "Bounce", bounce_type: "Permanent", recipients: ["gone@example.net", "also-gone@example.net"] },
    });
    expect(complaintJob).toEqual({ kind: "ses_feedback", payload: { event_type: "Complaint", recipients: ["angry@example.net"] } });
  });

  it("lets EventBridge send to the queue only on behalf of each feedback rule", () => {
    const grants = ofType(s, "AWS::SQS::QueuePolicy")
      .flatMap(([, r]) => r.Properties!.PolicyDocument.Statement as any[])
      .filter((st) => st.Effect === "Allow");
    for (const rule of ["Mail/Bounces", "Mail/Complaints"]) {
      expect(grants).toContainEqual(
        expect.objectContaining({
          Principal: { Service: "events.amazonaws.com" },
          Condition: { ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [s.id(rule), "Arn"] } } },
        }),
      );
    }
  });

  it("lets the worker alone send, as the identity through the configuration set, and tells it the sender and the set", () => {
    const workerPolicies = new Set(
      ofType(s, "AWS::IAM::Policy")
        .filter(([, r]) => JSON.stringify(r.Properties!.Roles).includes("Worker"))
        .map(([id]) => id),
    );
    const sesStatements = statements(s).filter(({ statement }) => asList(statement.Action).some((a: string) => a.startsWith("ses:")));
    expect(sesStatements).toHaveLength(1);
    const [{ policy, statement }] = sesStatements as [{ policy: string; statement: any }];
    expect(workerPolicies.has(policy)).toBe(true);
    expect(asList(statement.Action).sort()).toEqual(["ses:SendEmail", "ses:SendRawEmail"]);
    const resources = JSON.stringify(statement.Resource);
    expect(resources).toContain(":identity/");
    expect(resources).toContain(s.id("Mail/Identity"));
    expect(resources).toContain(":configuration-set/");
    expect(resources).toContain(s.id("Mail/ConfigurationSet"));
    expect(resources).not.toContain("*");

    const env = s.resources[s.id("Worker/Function")]!.Properties!.Environment.Variables;
    expect(env.EMAIL_FROM).toBe("noreply@example.com");
    expect(env.SES_CONFIGURATION_SET).toEqual({ Ref: s.id("Mail/ConfigurationSet") });
    for (const [id, r] of ofType(s, "AWS::Lambda::Function")) {
      if (id === s.id("Worker/Function")) continue;
      expect(r.Properties!.Environment?.Variables?.EMAIL_FROM, id).toBeUndefined();
    }
  });

  it("outputs the sender, the configuration set and the three DKIM CNAME records", () => {
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown; Description: string }>;
    const dkim = Object.entries(outputs).filter(([id]) => id.includes("DkimRecord"));
    expect(dkim.map(([id]) => id).sort()).toEqual(["MailDkimRecord1", "MailDkimRecord2", "MailDkimRecord3"]);
    for (const [, output] of dkim) {
      expect(JSON.stringify(output.Value)).toContain(" CNAME ");
      expect(output.Description).toContain("example.com");
    }
    expect(outputs.MailFrom!.Value).toBe("noreply@example.com");
    expect(outputs.MailConfigurationSet!.Value).toEqual({ Ref: s.id("Mail/ConfigurationSet") });
  });

  it("passes the template linter (every SES and EventBridge property against CloudFormation's schemas)", () => {
    prepareTemplateLinter();
    expect(lintTemplate(s.template.toJSON())).toEqual([]);
  });

  it("passes cdk-nag's AWS Solutions checks", () => {
    expect(nagFindings(s)).toEqual([]);
  });
});

describe("CDK stack without email settings", () => {
  let s: Synthesized;
  beforeAll(async () => {
    s = await synthesize({});
  }, 600_000);

  it("has no SES resource, grants no SES action, and gives the worker no sender (it drops mail, logging an error)", () => {
    expect(Object.values(s.resources).filter((r) => r.Type.startsWith("AWS::SES::"))).toEqual([]);
    expect(JSON.stringify(statements(s))).not.toContain("ses:");
    const env = s.resources[s.id("Worker/Function")]!.Properties!.Environment.Variables;
    expect(env.EMAIL_FROM).toBeUndefined();
    expect(env.SES_CONFIGURATION_SET).toBeUndefined();
    expect(nagFindings(s)).toEqual([]);
  });
});
