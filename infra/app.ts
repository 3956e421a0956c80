#!/usr/bin/env node
import { Annotations, App, Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { DEPLOY_CONFIG_FILE, DeployConfigError, loadDeployConfig } from "./deploy-config.js";
import { ZulipStack } from "./stack.js";

/**
 * The CDK app (`cdk.json` runs it with tsx). One env-agnostic stack, built
 * from the operator's settings file (`deploy.config.json`, or the file
 * `-c config=<file>` names: infra/deploy-config.ts); its `stackName`
 * (default `Zulip`) lets a dev stack sit next to production in one account.
 * A bad settings file stops the synthesis with its message alone (no stack
 * trace). cdk-nag's AWS Solutions rules run on every synth: an unsuppressed
 * finding fails it.
 */
const app = new App();
let loaded: ReturnType<typeof loadDeployConfig>;
try {
  loaded = loadDeployConfig(app.node);
} catch (error) {
  if (!(error instanceof DeployConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const stack = new ZulipStack(app, loaded.config.stackName, { config: loaded.config });
if (loaded.file === undefined) {
  Annotations.of(stack).addWarningV2(
    "zulip:noSettingsFile",
    `No ${DEPLOY_CONFIG_FILE}: every setting is its default (no custom domain, no alarm email). ` +
      `Copy deploy.config.example.json to ${DEPLOY_CONFIG_FILE} and edit it (docs/deploying.md, "Settings").`,
  );
}
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
app.synth();
