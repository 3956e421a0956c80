import { beforeAll, describe, expect, it } from "vitest";
import { GLOBAL_INDEXES } from "../../shared/data/table.js";
import { GROUPS } from "../../shared/routes.js";
import { ChatTable } from "../../infra/constructs/data.js";
import { parseDeployConfig } from "../../infra/deploy-config.js";
import { synthesizeInChildProcess } from "./synth.js";
import { lintTemplate, prepareTemplateLinter } from "./template-validator.js";

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every IAM statement of the template that names a DynamoDB action. */
function dynamoStatements(template: Record<string, any>): Record<string, any>[] {
  return Object.values(template.Resources as Record<string, any>)
    .filter((r) => r.Type === "AWS::IAM::Policy")
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Record<string, any>[])
    .filter((s) => asList(s.Action as string | string[]).some((a) => a.startsWith("dynamodb:")));
}

describe("CDK stack with existingTableName (restoring a backup)", () => {
  const name = "zulip-restored-2026-11-24";
  let template: Record<string, any>;
  let nagFindings: string[];

  beforeAll(async () => {
    ({ template, nagFindings } = await synthesizeInChildProcess({ existingTableName: name }, { nag: true }));
    prepareTemplateLinter();
  }, 600_000);

  it("creates no table and points every function at the given one", () => {
    const types = Object.values(template.Resources as Record<string, any>).map((r) => r.Type);
    expect(types).not.toContain("AWS::DynamoDB::Table");
    const functions = Object.values(template.Resources as Record<string, any>).filter((r) => r.Type === "AWS::Lambda::Function");
    expect(functions).toHaveLength(GROUPS.length + 2);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe(name);
    expect(template.Outputs.TableName.Value).toBe(name);
  });

  it("grants the same item actions, on that table and its named indexes only", () => {
    // One statement per role that uses the table: each API group's (the web app's files use none) and the worker's.
    const statements = dynamoStatements(template);
    expect(statements).toHaveLength(GROUPS.filter((g) => g !== "web").length + 1);
    const tableArn = {
      "Fn::Join": [
        "",
        ["arn:", { Ref: "AWS::Partition" }, ":dynamodb:", { Ref: "AWS::Region" }, ":", { Ref: "AWS::AccountId" }, `:table/${name}`],
      ],
    };
    const indexArn = (index: string) => ({
      "Fn::Join": [
        "",
        ["arn:", { Ref: "AWS::Partition" }, ":dynamodb:", { Ref: "AWS::Region" }, ":", { Ref: "AWS::AccountId" }, `:table/${name}/index/${index}`],
      ],
    });
    expect(GLOBAL_INDEXES.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.Effect).toBe("Allow");
      expect(asList(statement.Action).sort()).toEqual(ChatTable.ITEM_ACTIONS.map((a) => `dynamodb:${a}`).sort());
      expect(statement.Resource).toEqual([tableArn, ...GLOBAL_INDEXES.map((i) => indexArn(i.name))]);
    }
  });

  it("passes the template linter and cdk-nag's AWS Solutions checks", () => {
    expect(lintTemplate(template)).toEqual([]);
    expect(nagFindings).toEqual([]);
  });

  it("refuses a name DynamoDB would refuse", () => {
    expect(parseDeployConfig({ existingTableName: name }).existingTableName).toBe(name);
    expect(parseDeployConfig({}).existingTableName).toBeUndefined();
    expect(() => parseDeployConfig({ existingTableName: "my table" })).toThrow(
      'deploy.config.json: "existingTableName" must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), got "my table"',
    );
    expect(() => parseDeployConfig({ existingTableName: "ab" })).toThrow(/"existingTableName" must be a DynamoDB table name/);
  });
});
