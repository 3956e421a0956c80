import { beforeAll, describe, expect, it } from "vitest";
import { CUSTOM_DOMAIN_CONFIG, synthesizeInChildProcess } from "./synth.js";
import { lintTemplate, prepareTemplateLinter } from "./template-validator.js";

/**
 * The synthesized templates pass an offline CloudFormation linter
 * (test/infra/template-validator.ts: the template anatomy, references, and
 * every resource's properties against CDK's database of CloudFormation
 * resource schemas), in each deployment shape docs/deploying.md describes
 * (the existing-table shape in existing-table.test.ts).
 */
describe.each([
  ["default settings", {}],
  ["custom domain", CUSTOM_DOMAIN_CONFIG],
])("synthesized template (%s)", (_name, config) => {
  let template: Record<string, any>;
  beforeAll(async () => {
    template = (await synthesizeInChildProcess(config)).template;
    prepareTemplateLinter();
  }, 600_000);

  it("passes the template linter", () => {
    expect(lintTemplate(template)).toEqual([]);
  });

  it("gives every output a literal string description", () => {
    const outputs = Object.entries(template.Outputs as Record<string, { Description?: unknown }>);
    expect(outputs.length).toBeGreaterThan(0);
    for (const [id, output] of outputs) expect(typeof output.Description, id).toBe("string");
    if (config === CUSTOM_DOMAIN_CONFIG) {
      expect(template.Outputs.RootDomainTarget.Description).toBe("CNAME (or alias) target for example.com");
      expect(template.Outputs.OrgSubdomainsTarget.Description).toBe("CNAME (or alias) target for *.example.com");
    }
  });
});

describe("template linter", () => {
  beforeAll(prepareTemplateLinter, 120_000);

  /** A small valid template to break one thing at a time. */
  const base = () => ({
    Parameters: { Version: { Type: "AWS::SSM::Parameter::Value<String>", Default: "/cdk-bootstrap/version" } },
    Conditions: { IsProd: { "Fn::Equals": [{ Ref: "AWS::AccountId" }, "123456789012"] } },
    Resources: {
      Queue: { Type: "AWS::SQS::Queue", Properties: { VisibilityTimeout: 30, SqsManagedSseEnabled: true } },
      Logs: { Type: "AWS::Logs::LogGroup", Properties: { RetentionInDays: 30, LogGroupClass: "STANDARD" } },
      Table: {
        Type: "AWS::DynamoDB::Table",
        DeletionPolicy: "Retain",
        Properties: {
          KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
          AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
          BillingMode: "PAY_PER_REQUEST",
          Tags: [{ Key: "app", Value: { Ref: "AWS::StackName" } }],
        },
      },
    },
    Outputs: {
      QueueUrl: { Description: "The queue", Value: { Ref: "Queue" } },
      TableArn: { Value: { "Fn::GetAtt": ["Table", "Arn"] }, Condition: "IsProd" },
    },
  });
  type Tpl = ReturnType<typeof base> & Record<string, any>;
  const lint = (change: (t: Tpl) => void) => {
    const t = base() as Tpl;
    change(t);
    return lintTemplate(t);
  };

  it("accepts the valid template", () => {
    expect(lint(() => {})).toEqual([]);
  });

  it("refuses an output description built with a function (cfn-lint E6003)", () => {
    const problems = lint((t) => {
      t.Outputs.QueueUrl.Description = { "Fn::Join": ["", ["Queue ", { Ref: "Queue" }]] } as never;
    });
    expect(problems).toEqual([{ path: "Outputs.QueueUrl.Description", message: "must be string" }]);
  });

  it("refuses unknown sections, resource attributes, output keys and bad logical IDs", () => {
    const problems = lint((t) => {
      t.Output = {};
      (t.Resources.Queue as any).DeletionPolicy = "Keep";
      (t.Outputs.QueueUrl as any).Exports = { Name: "x" };
      (t.Resources as any)["Bad-Id"] = { Type: "AWS::SQS::Queue" };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: "(template)", message: "must NOT have additional properties (Output)" },
        { path: "Resources.Queue.DeletionPolicy", message: expect.stringMatching(/^must be equal to one of the allowed values/) },
        { path: "Outputs.QueueUrl", message: "must NOT have additional properties (Exports)" },
        { path: "Resources.Bad-Id", message: expect.stringMatching(/^must match pattern/) },
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it("refuses a parameter of an unknown type and a condition that is no condition function", () => {
    const problems = lint((t) => {
      (t.Parameters.Version as any).Type = "Text";
      (t.Conditions as any).Bad = { "Fn::Join": ["", []] };
    });
    expect(problems).toEqual([
      { path: "Parameters.Version.Type", message: expect.stringMatching(/^must match pattern/) },
      { path: "Conditions.Bad.Fn::Join", message: expect.stringMatching(/^must be equal to one of the allowed values/) },
    ]);
  });

  it("refuses unknown properties, missing required ones, wrong literal types and values outside the allowed set", () => {
    const problems = lint((t) => {
      const p = t.Resources.Table.Properties as Record<string, any>;
      delete p.KeySchema;
      (t.Resources.Logs.Properties as any).LogGroupClass = "COLD";
      (t.Resources.Logs.Properties as any).RetentionInDays = 31;
      p.TableNmae = "x";
      p.AttributeDefinitions[0].AttributeType = 5;
      (t.Resources.Queue.Properties as any).VisibilityTimeout = "soon";
      (t.Resources.Queue.Properties as any).SqsManagedSseEnabled = "yes";
      p.Tags[0] = { Key: "app" };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: "Resources.Table.Properties", message: "required property KeySchema is missing" },
        { path: "Resources.Table.Properties.TableNmae", message: "unknown property" },
        { path: "Resources.Logs.Properties.LogGroupClass", message: '"COLD" is not one of STANDARD, INFREQUENT_ACCESS, DELIVERY' },
        { path: "Resources.Logs.Properties.RetentionInDays", message: expect.stringMatching(/^31 is not one of 1, 3, 5, /) },
        { path: "Resources.Table.Properties.AttributeDefinitions.0.AttributeType", message: "expected a string, got number 5" },
        { path: "Resources.Table.Properties.Tags.0", message: "required property Value is missing" },
        { path: "Resources.Queue.Properties.VisibilityTimeout", message: expect.stringMatching(/^expected an integer/) },
        { path: "Resources.Queue.Properties.SqsManagedSseEnabled", message: expect.stringMatching(/^expected a boolean/) },
      ]),
    );
    expect(problems).toHaveLength(8);
  });

  it("does not check values that are intrinsic functions", () => {
    expect(
      lint((t) => {
        (t.Resources.Queue.Properties as any).VisibilityTimeout = { "Fn::If": ["IsProd", 30, 60] };
        (t.Resources.Table.Properties as any).BillingMode = { Ref: "Version" };
      }),
    ).toEqual([]);
  });

  it("refuses dangling references and attributes the target's type does not have", () => {
    const problems = lint((t) => {
      t.Outputs.QueueUrl.Value = { Ref: "Queeu" };
      t.Outputs.TableArn.Value = { "Fn::GetAtt": ["Table", "Endpoint"] };
      (t.Outputs.TableArn as any).Condition = "IsDev";
      (t.Resources.Queue as any).DependsOn = ["Tabel"];
    });
    expect(problems).toEqual([
      { path: "Outputs.QueueUrl.Value.Ref", message: "Ref to Queeu, which is no resource, parameter or pseudo parameter" },
      { path: "Outputs.TableArn.Value.Fn::GetAtt", message: "AWS::DynamoDB::Table has no attribute Endpoint" },
      { path: "Resources.Queue.DependsOn", message: "depends on Tabel, which is no resource" },
      { path: "Outputs.TableArn.Condition", message: "condition IsDev is not defined" },
    ]);
  });

  it("refuses a resource type CloudFormation does not have", () => {
    expect(lint((t) => ((t.Resources.Queue as any).Type = "AWS::SQS::Queues"))).toEqual([
      { path: "Resources.Queue.Type", message: "unknown resource type AWS::SQS::Queues" },
    ]);
  });
});
