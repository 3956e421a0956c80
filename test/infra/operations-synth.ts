/**
 * Shared by the operations tests (operations.test.ts, managed-events.test.ts):
 * a synthesis of the stack from given settings, and finders over its template.
 */
import { Template } from "aws-cdk-lib/assertions";
import { expect } from "vitest";
import type { DeployConfigInput } from "../../infra/deploy-config.js";
import { synthesizeInChildProcess } from "./synth.js";

export type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export interface Synthesized {
  template: Template;
  resources: Resources;
  /** Logical ID of the resource at a construct path below the stack (`Monitoring/AlarmTopic`, `EventsApi/Function`). */
  id(path: string): string;
  /** cdk-nag's errors and warnings (`<rule id>: <path>`). */
  nagFindings: string[];
  /** Every warning annotation's text. */
  warnings: string[];
}

/**
 * Synthesizes the stack from the settings `config` with cdk-nag's checks and
 * without bundling the functions, in a child process (test/infra/synth.ts),
 * so that the test worker stays responsive on a busy machine (only
 * configuration is asserted here; test/infra/stack.test.ts synthesizes the
 * bundled default).
 */
export async function synthesize(config: DeployConfigInput = {}): Promise<Synthesized> {
  const out = await synthesizeInChildProcess(config, { nag: true });
  return {
    template: Template.fromJSON(out.template),
    resources: out.template.Resources as Resources,
    id: (path) => {
      const id = out.ids[path];
      if (id === undefined) throw new Error(`no resource at ${path}`);
      return id;
    },
    nagFindings: out.nagFindings,
    warnings: out.warnings,
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
export const concurrencyWarnings = (s: Synthesized) => s.warnings.filter((text) => text.startsWith("No events reservation"));
export const nagFindings = (s: Synthesized) => s.nagFindings;
