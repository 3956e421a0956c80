import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { App, Aspects, CfnElement } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { PROJECT_ROOT } from "../../infra/constructs/service-function.js";
import { parseDeployConfig, type DeployConfigInput } from "../../infra/deploy-config.js";
import { ZulipStack } from "../../infra/stack.js";
import { makeWebDist } from "../support/web-dist.js";

/** The context `cdk synth` runs with (the feature flags of cdk.json). */
export const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> }
).context;

/** Settings of a custom-domain deployment (`rootDomain` and `certificateArn` in deploy.config.json). */
export const CUSTOM_DOMAIN_CONFIG = {
  rootDomain: "example.com",
  certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000",
} as const;

/** An error or warning annotation of the synthesized stack: the construct path and the text. */
export interface StackAnnotation {
  level: "error" | "warning";
  /** Construct path (`/Test/Worker/Function/Resource`). */
  id: string;
  data: string;
}

/** What a synthesis returns, in the test worker or from the child process. */
export interface SynthesisResult {
  template: Record<string, any>;
  /** cdk-nag's errors and warnings (`<rule id>: <path>`; none without `nag`). */
  nagFindings: string[];
  /** Every warning's text. */
  warnings: string[];
  /** Every error and warning annotation, with its construct path. */
  annotations: StackAnnotation[];
  /** Logical ID of each resource by construct path below the stack (`Monitoring/AlarmTopic`; a construct's default child also under the construct's own path). */
  ids: Record<string, string>;
  /**
   * The cloud assembly folder, with the bundled assets as `asset.<hash>`. A temporary folder CDK removes when the
   * synthesizing process exits, unless `options.outdir` named it.
   */
  outdir: string;
}

export interface SynthesisOptions {
  /** Run cdk-nag's AWS Solutions checks as `infra/app.ts` does. */
  nag?: boolean;
  /** Bundle every function with esbuild as `cdk synth` does (slow); off, the template is the same but for the asset hashes. */
  bundle?: boolean;
  /** The cloud assembly folder; default: a temporary one. */
  outdir?: string;
  /**
   * The built web app bundled into the `web` function; default with `bundle`: a small stand-in
   * (test/support/web-dist.ts), so that a clone where `npm run build:web` never ran synthesizes.
   */
  webDist?: string;
}

/**
 * Synthesizes the stack as `cdk synth` would with cdk.json's context and
 * the settings file `config` (checked by its schema), bundling the functions only with `options.bundle`,
 * with cdk-nag's AWS Solutions checks as `infra/app.ts` runs them when `options.nag`.
 * Synchronous and slow (seconds to minutes with `bundle`): tests call it through {@link synthesizeInChildProcess}.
 * @returns the stack and {@link SynthesisResult}
 */
export function synthesizeStack(
  config: DeployConfigInput = {},
  options: SynthesisOptions = {},
): SynthesisResult & { stack: ZulipStack } {
  const app = new App({
    outdir: options.outdir,
    context: { ...CDK_JSON_CONTEXT, ...(options.bundle ? {} : { "aws:cdk:bundling-stacks": [] }) },
  });
  const webDist = options.webDist ?? (options.bundle ? makeWebDist() : undefined);
  const stack = new ZulipStack(app, "Test", { config: parseDeployConfig(config), webDist });
  if (options.nag) Aspects.of(app).add(new AwsSolutionsChecks());
  const template = Template.fromStack(stack).toJSON();
  const found = Annotations.fromStack(stack);
  const nag = Match.stringLikeRegexp("(AwsSolutions-|CdkNagValidationFailure).*");
  const nagFindings = [...found.findError("*", nag), ...found.findWarning("*", nag)].map(
    (finding) => `${String(finding.entry.data).split(":")[0]}: ${finding.id}`,
  );
  const warnings = found.findWarning("*", Match.anyValue()).map((finding) => String(finding.entry.data));
  const annotations: StackAnnotation[] = [
    ...found.findError("*", Match.anyValue()).map((a) => ({ level: "error" as const, id: a.id, data: String(a.entry.data) })),
    ...found.findWarning("*", Match.anyValue()).map((a) => ({ level: "warning" as const, id: a.id, data: String(a.entry.data) })),
  ];
  const ids: Record<string, string> = {};
  const below = (p: string) => p.slice(stack.node.path.length + 1);
  for (const construct of stack.node.findAll()) {
    if (!CfnElement.isCfnElement(construct)) continue;
    ids[below(construct.node.path)] = stack.getLogicalId(construct);
    const owner = construct.node.scope;
    if (owner && owner !== stack && owner.node.defaultChild === construct) ids[below(owner.node.path)] = stack.getLogicalId(construct);
  }
  return { stack, template, nagFindings, warnings, annotations, ids, outdir: app.outdir };
}

/**
 * {@link synthesizeStack} in a child process (test/infra/synth-child.ts),
 * so the calling test worker stays responsive while the stack synthesizes.
 * With `options.bundle` the assets outlive the child in a new temporary `outdir`, which the caller removes.
 * @returns {@link SynthesisResult}
 */
export async function synthesizeInChildProcess(
  config: DeployConfigInput = {},
  options: Pick<SynthesisOptions, "nag" | "bundle"> = {},
): Promise<SynthesisResult> {
  const tsx = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx");
  const script = path.join(PROJECT_ROOT, "test", "infra", "synth-child.ts");
  const flags = [
    ...(options.nag ? ["nag"] : []),
    ...(options.bundle ? ["bundle", `outdir=${mkdtempSync(path.join(tmpdir(), "zs-synth-"))}`] : []),
  ];
  const args = [script, JSON.stringify(config), ...flags];
  const { stdout } = await promisify(execFile)(tsx, args, { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 });
  // Anything a library printed before the result is not part of it.
  return JSON.parse(stdout.slice(stdout.lastIndexOf('{"template":')));
}
