import { readFileSync } from "node:fs";
import path from "node:path";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { ZulipStack } from "../../infra/stack.js";

/** The context `cdk synth` runs with (feature flags and defaults of cdk.json). */
export const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> }
).context;

/** Context values of a custom-domain deployment (`-c rootDomain=… -c certificateArn=…`). */
export const CUSTOM_DOMAIN_CONTEXT = {
  rootDomain: "example.com",
  certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000",
} as const;

/**
 * Synthesizes the stack as `cdk synth` would with cdk.json's context plus
 * `context`, without bundling the functions (the template is the same but
 * for the asset hashes): for tests of the template's shape.
 */
export function synthesizeWithoutBundling(context: Record<string, unknown> = {}): {
  stack: ZulipStack;
  template: Record<string, any>;
} {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, ...context, "aws:cdk:bundling-stacks": [] } });
  const stack = new ZulipStack(app, "Test");
  return { stack, template: Template.fromStack(stack).toJSON() };
}
