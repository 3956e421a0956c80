import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { App, Aspects, CfnElement } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { parseDeployConfig, type DeployConfigInput } from "../../infra/deploy-config.js";
import { ZulipStack } from "../../infra/stack.js";

/** The context `cdk synth` runs with (the feature flags of cdk.json). */
export const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> }
).context;

/** Settings of a custom-domain deployment (`rootDomain` and `certificateArn` in deploy.config.json). */
export const CUSTOM_DOMAIN_CONFIG = {
  rootDomain: "example.com",
  certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000",
} as const;

/**
 * Synthesizes the stack as `cdk synth` would with cdk.json's context and
 * the settings file `config` (checked by its schema), without bundling the functions (the template is the same but
 * for the asset hashes), with cdk-nag's AWS Solutions checks as
 * `infra/app.ts` runs them when `options.nag`: for tests of the template's
 * shape.
 * @returns the stack, its template, the cdk-nag errors and warnings (`<rule id>: <path>`; none without `nag`),
 *   every warning's text, and the logical ID of each resource by construct path below the stack
 *   (`Monitoring/AlarmTopic`; a construct's default child also under the construct's own path)
 */
export function synthesizeWithoutBundling(
  config: DeployConfigInput = {},
  options: { nag?: boolean } = {},
): {
  stack: ZulipStack;
  template: Record<string, any>;
  nagFindings: string[];
  warnings: string[];
  ids: Record<string, string>;
} {
  const app = new App({ context: { ...CDK_JSON_CONTEXT, "aws:cdk:bundling-stacks": [] } });
  const stack = new ZulipStack(app, "Test", { config: parseDeployConfig(config) });
  if (options.nag) Aspects.of(app).add(new AwsSolutionsChecks());
  const template = Template.fromStack(stack).toJSON();
  const annotations = Annotations.fromStack(stack);
  const nag = Match.stringLikeRegexp("(AwsSolutions-|CdkNagValidationFailure).*");
  const nagFindings = [...annotations.findError("*", nag), ...annotations.findWarning("*", nag)].map(
    (finding) => `${String(finding.entry.data).split(":")[0]}: ${finding.id}`,
  );
  const warnings = annotations.findWarning("*", Match.anyValue()).map((finding) => String(finding.entry.data));
  const ids: Record<string, string> = {};
  const below = (p: string) => p.slice(stack.node.path.length + 1);
  for (const construct of stack.node.findAll()) {
    if (!CfnElement.isCfnElement(construct)) continue;
    ids[below(construct.node.path)] = stack.getLogicalId(construct);
    const owner = construct.node.scope;
    if (owner && owner !== stack && owner.node.defaultChild === construct) ids[below(owner.node.path)] = stack.getLogicalId(construct);
  }
  return { stack, template, nagFindings, warnings, ids };
}

/**
 * {@link synthesizeWithoutBundling} in a child process (test/infra/synth-child.ts),
 * so the calling test worker stays responsive while the stack synthesizes.
 * @returns the template, the cdk-nag findings (none without `options.nag`), the warnings and the logical IDs by path
 */
export async function synthesizeInChildProcess(
  config: DeployConfigInput = {},
  options: { nag?: boolean } = {},
): Promise<{ template: Record<string, any>; nagFindings: string[]; warnings: string[]; ids: Record<string, string> }> {
  const tsx = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx");
  const script = path.join(PROJECT_ROOT, "test", "infra", "synth-child.ts");
  const args = [script, JSON.stringify(config), ...(options.nag ? ["nag"] : [])];
  const { stdout } = await promisify(execFile)(tsx, args, { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 });
  // Anything a library printed before the result is not part of it.
  return JSON.parse(stdout.slice(stdout.lastIndexOf('{"template":')));
}
