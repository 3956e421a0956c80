/**
 * Shared by the operations tests (operations.test.ts, managed-events.test.ts):
 * a synthesis of the stack from given settings, and finders over its template.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { App, Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { AwsSolutionsChecks } from "cdk-nag";
import { expect } from "vitest";
import { parseDeployConfig, type DeployConfigInput } from "../../infra/deploy-config.js";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { ZulipStack } from "../../infra/stack.js";

const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> }
).context;

export type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export interface Synthesized {
  stack: ZulipStack;
  template: Template;
  resources: Resources;
  /** Logical ID of a construct's CloudFormation resource. */
  id(construct: { node: { defaultChild?: unknown } }): string;
}

/**
 * Synthesizes the stack from the settings `config` with cdk-nag's checks and
 * without bundling the functions (only configuration is asserted here;
 * test/infra/stack.test.ts synthesizes the bundled default).
 */
export function synthesize(config: DeployConfigInput = {}): Synthesized {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, "aws:cdk:bundling-stacks": [] } });
  const stack = new ZulipStack(app, "Test", { config: parseDeployConfig(config) });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const template = Template.fromStack(stack);
  return {
    stack,
    template,
    resources: template.toJSON().Resources as Resources,
    id: (construct) => stack.getLogicalId(construct.node.defaultChild as CfnFunction),
  };
}

/** The condition scoping CloudWatch's use of the topic and its key to alarms of the stack's own account. */
export const FROM_THIS_ACCOUNTS_ALARMS = {
  StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } },
  ArnLike: {
    "aws:SourceArn": {
      "Fn::Join": [
        "",
        ["arn:", { Ref: "AWS::Partition" }, ":cloudwatch:", { Ref: "AWS::Region" }, ":", { Ref: "AWS::AccountId" }, ":alarm:*"],
      ],
    },
  },
};

export const ofType = (s: Synthesized, type: string) => Object.entries(s.resources).filter(([, r]) => r.Type === type);
export const alarmNamed = (s: Synthesized, name: string) => {
  const found = ofType(s, "AWS::CloudWatch::Alarm").filter(([, r]) => r.Properties!.AlarmName === `Test-${name}`);
  expect(found, name).toHaveLength(1);
  return found[0]![1].Properties!;
};
export const concurrencyWarnings = (s: Synthesized) =>
  Annotations.fromStack(s.stack)
    .findWarning("*", Match.stringLikeRegexp("No events reservation.*"))
    .map((e) => String(e.entry.data));
export const nagFindings = (s: Synthesized) => {
  const annotations = Annotations.fromStack(s.stack);
  return [
    ...annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ...annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ...annotations.findWarning("*", Match.stringLikeRegexp("CdkNagValidationFailure.*")),
  ].map((e) => `${e.id}: ${String(e.entry.data).slice(0, 100)}`);
};
